import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

const sent: { type: string; data: unknown }[] = [];
vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data?: unknown) => {
    sent.push({ type, data });
    return { enabledSites: ['already.test'] };
  }),
}));

const { enableSite, disableSite } = await import('./enable-site');

describe('enableSite', () => {
  const request = vi.fn(async (_p: { origins: string[] }) => true);
  const remove = vi.fn(async (_p: { origins: string[] }) => true);
  beforeEach(() => {
    fakeBrowser.reset();
    sent.length = 0;
    request.mockClear();
    remove.mockClear();
    Object.assign(fakeBrowser, { permissions: { ...fakeBrowser.permissions, request, remove } });
  });

  it("asks for the site's permission first, then saves the site", async () => {
    expect(await enableSite('https://CRM.example.com/contacts')).toEqual({
      ok: true,
      site: 'crm.example.com',
    });
    expect(request).toHaveBeenCalledWith({ origins: ['*://*.crm.example.com/*'] });
    expect(sent.at(-1)).toEqual({
      type: 'saveSettings',
      data: { enabledSites: ['already.test', 'crm.example.com'] },
    });
  });

  it('saves nothing when the permission is refused or the input is no site', async () => {
    request.mockResolvedValueOnce(false);
    expect((await enableSite('crm.example.com')).ok).toBe(false);
    expect((await enableSite('two words')).ok).toBe(false);
    expect(sent).toEqual([]);
  });

  it('disabling removes the site and gives its permission back', async () => {
    await disableSite('already.test');
    expect(sent.at(-1)).toEqual({ type: 'saveSettings', data: { enabledSites: [] } });
    expect(remove).toHaveBeenCalledWith({ origins: ['*://*.already.test/*'] });
  });
});
