import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { updateSettings } from '@/lib/storage/settings';
import { CONTENT_SCRIPT_FILE, CONTENT_SCRIPT_ID, resync, syncContentScripts } from './content-scripts';

interface Registered {
  id: string;
  js?: string[];
  matches?: string[];
  persistAcrossSessions?: boolean;
}

/** The fake browser has no scripting/permissions: an in-memory stand-in with the real call shapes. */
function installScripting(granted: Set<string>) {
  const registered = new Map<string, Registered>();
  const scripting = {
    getRegisteredContentScripts: vi.fn(async (filter?: { ids?: string[] }) =>
      [...registered.values()].filter((s) => !filter?.ids || filter.ids.includes(s.id)),
    ),
    registerContentScripts: vi.fn(async (scripts: Registered[]) => {
      for (const s of scripts) {
        if (registered.has(s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
        registered.set(s.id, s);
      }
    }),
    updateContentScripts: vi.fn(async (scripts: Registered[]) => {
      for (const s of scripts) registered.set(s.id, { ...registered.get(s.id), ...s });
    }),
    unregisterContentScripts: vi.fn(async (filter: { ids: string[] }) => {
      for (const id of filter.ids) registered.delete(id);
    }),
  };
  Object.assign(fakeBrowser, {
    scripting,
    permissions: {
      ...fakeBrowser.permissions,
      contains: vi.fn(async (p: { origins?: string[] }) => (p.origins ?? []).every((o) => granted.has(o))),
    },
  });
  return { registered, scripting };
}

describe('content-script registration', () => {
  beforeEach(() => fakeBrowser.reset());

  it('registers exactly the enabled sites with a granted permission, persisted across restarts', async () => {
    const { registered } = installScripting(new Set(['*://*.crm.example.com/*', 'http://127.0.0.1/*']));
    await syncContentScripts(['crm.example.com', 'mail.example.org', '127.0.0.1']);
    expect(registered.get(CONTENT_SCRIPT_ID)).toMatchObject({
      js: [CONTENT_SCRIPT_FILE],
      matches: ['*://*.crm.example.com/*', 'http://127.0.0.1/*'],
      persistAcrossSessions: true,
    });
  });

  it('updates the registration when sites change and removes it when none is left', async () => {
    const { registered, scripting } = installScripting(new Set(['*://*.a.test/*', '*://*.b.test/*']));
    await syncContentScripts(['a.test']);
    await syncContentScripts(['a.test', 'b.test']);
    expect(scripting.registerContentScripts).toHaveBeenCalledTimes(1);
    expect(registered.get(CONTENT_SCRIPT_ID)?.matches).toEqual(['*://*.a.test/*', '*://*.b.test/*']);
    await syncContentScripts([]);
    expect(registered.size).toBe(0);
  });

  it('follows the enabled sites in settings', async () => {
    const { registered } = installScripting(new Set(['*://*.crm.example.com/*']));
    await updateSettings({ enabledSites: ['crm.example.com'] });
    expect(await resync()).toEqual(['*://*.crm.example.com/*']);
    expect(registered.get(CONTENT_SCRIPT_ID)?.matches).toEqual(['*://*.crm.example.com/*']);
    await updateSettings({ enabledSites: [] });
    expect(await resync()).toEqual([]);
    expect(registered.size).toBe(0);
  });
});
