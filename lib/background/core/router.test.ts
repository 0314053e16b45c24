import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { fromMessageError } from '@/lib/api/errors';
import { startScriptedServer } from '@/lib/api/testing/scripted-server';
import { configure, fakeService, resetBackground } from '@/lib/background/testing/setup';
import { CONTENT_SCRIPT_MESSAGES, LOOKUP_MAX, type ProtocolMap } from '@/lib/shared/messages';
import { getApiKey } from '@/lib/storage/api-key';
import { getCached, getRecent, putCached } from '@/lib/storage/verdict-cache';
import { verdictView } from '@/lib/testing/verdict-view';
import { isAllowed, type SenderInfo, senderKind } from './authorize';
import { dispatch, handlers } from './router';

const ID = 'test-extension-id';
const popup: SenderInfo = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const optionsTab: SenderInfo = { id: ID, url: `chrome-extension://${ID}/options.html`, tab: { id: 3 } };
const contentScript: SenderInfo = { id: ID, url: 'https://crm.example.com/contacts', tab: { id: 7 } };
const otherExtension: SenderInfo = { id: 'evil', url: 'chrome-extension://evil/page.html' };

async function rejection(promise: Promise<unknown>) {
  return fromMessageError(
    await promise.then(
      () => new Error('resolved'),
      (err: unknown) => err,
    ),
  );
}

let server: Awaited<ReturnType<typeof startScriptedServer>>;
beforeAll(async () => {
  server = await startScriptedServer(fakeService().script);
});
afterAll(() => server.close());
beforeEach(async () => {
  await resetBackground();
  await configure(server.url, 'secret-key');
});

describe('who is who', () => {
  it('tells extension pages, content scripts and strangers apart', () => {
    expect(senderKind(popup)).toBe('extension_page');
    expect(senderKind(optionsTab)).toBe('extension_page');
    expect(senderKind(contentScript)).toBe('content_script');
    expect(senderKind(otherExtension)).toBe('unknown');
    expect(senderKind({ id: ID, url: 'https://x.example' })).toBe('unknown');
    expect(senderKind(undefined)).toBe('unknown');
  });

  it('trusts only what the browser sets: our id, and the origin of the sender URL', () => {
    // No id: not from this extension, whatever the URL says.
    expect(senderKind({ url: popup.url })).toBe('unknown');
    expect(senderKind({ url: contentScript.url, tab: { id: 7 } })).toBe('unknown');
    // A web page whose URL merely contains the extension origin is a page.
    const lookalike = `https://evil.example/chrome-extension://${ID}/popup.html`;
    expect(senderKind({ id: ID, url: lookalike, tab: { id: 7 } })).toBe('content_script');
    expect(senderKind({ id: ID, url: `chrome-extension://${ID}.evil.example/popup.html` })).toBe('unknown');
    // A tab on something that is not a web page (or an unparsable URL) is nobody we know.
    expect(senderKind({ id: ID, url: 'chrome://settings/', tab: { id: 7 } })).toBe('unknown');
    expect(senderKind({ id: ID, url: 'not a url', tab: { id: 7 } })).toBe('unknown');
  });

  it('lets content scripts send only the content-script messages', () => {
    for (const type of Object.keys(handlers) as (keyof ProtocolMap)[]) {
      const expected = (CONTENT_SCRIPT_MESSAGES as readonly string[]).includes(type);
      expect([type, isAllowed(type, contentScript)]).toEqual([type, expected]);
      expect(isAllowed(type, popup)).toBe(true);
      expect(isAllowed(type, otherExtension)).toBe(false);
    }
  });
});

describe('dispatch', () => {
  it('refuses settings to a content script, with a readable error', async () => {
    const err = await rejection(dispatch('getSettings', undefined, contentScript));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('getSettings');
    const save = await rejection(dispatch('saveSettings', { apiKey: 'stolen' }, contentScript));
    expect(save.kind).toBe('bad_request');
    expect(await getApiKey()).toBe('secret-key');
  });

  it('gives settings to extension pages without the key itself', async () => {
    const view = await dispatch('getSettings', undefined, popup);
    expect(view).toMatchObject({ serviceUrl: server.url, hasApiKey: true });
    expect(JSON.stringify(view)).not.toContain('secret-key');
  });

  it('answers a content script asking for a verdict', async () => {
    const view = await dispatch('verifyEmail', { email: 'nope' }, contentScript);
    expect(view.status).toBe('invalid');
    const config = await dispatch('contentConfig', undefined, contentScript);
    expect(config).toMatchObject({
      enabled: false,
      autoVerifyBudget: 25,
      sendGuard: false,
      sendGuardRisky: false,
    });
    expect(Object.keys(config).sort()).toEqual([
      'autoVerifyBudget',
      'badgeWords',
      'enabled',
      'sendGuard',
      'sendGuardRisky',
    ]);
  });

  it('answers cached lookups of at most LOOKUP_MAX strings, and refuses anything else', async () => {
    const answer = await dispatch(
      'lookupCached',
      { emails: ['a@example.com', '__proto__', 'x'] },
      contentScript,
    );
    expect(Object.keys(answer).sort()).toEqual(['__proto__', 'a@example.com', 'x']);
    expect(answer['a@example.com']).toBeNull();
    expect(Object.getOwnPropertyDescriptor(answer, '__proto__')?.value?.status).toBe('invalid');
    for (const emails of [Array(LOOKUP_MAX + 1).fill('a@example.com'), [42], 'a@example.com', undefined]) {
      const err = await rejection(
        dispatch('lookupCached', { emails } as unknown as { emails: string[] }, contentScript),
      );
      expect(err.kind).toBe('bad_request');
    }
  });

  it('enables marking for enabled sites and their subdomains', async () => {
    await dispatch('saveSettings', { enabledSites: ['example.com'] }, optionsTab);
    expect((await dispatch('contentConfig', undefined, contentScript)).enabled).toBe(true);
    const other = { ...contentScript, url: 'https://example.org/' };
    expect((await dispatch('contentConfig', undefined, other)).enabled).toBe(false);
  });

  it('turns ApiErrors into messages fromMessageError reads back', async () => {
    const err = await rejection(dispatch('saveSettings', { serviceUrl: 'http://verify.example.com' }, popup));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/https/);
  });

  it('stores a new key in IndexedDB and never in storage.local', async () => {
    await dispatch('saveSettings', { apiKey: 'new-key', serviceUrl: 'https://verify.example.com/' }, popup);
    expect(await getApiKey()).toBe('new-key');
    expect(JSON.stringify(await fakeBrowser.storage.local.get())).not.toContain('new-key');
    expect((await dispatch('getSettings', undefined, popup)).serviceUrl).toBe('https://verify.example.com');
  });
});

describe('the options page’s "Forget API key" and "Clear cached verdicts"', () => {
  it('forget the key and the cached verdicts, for extension pages only', async () => {
    await dispatch('verifyEmail', { email: 'ann@example.com' }, popup).catch(() => undefined);
    await putCached(verdictView('bob@example.com', 'deliverable'), 'catch_all', 24);
    expect(await getCached('bob@example.com')).not.toBeNull();
    expect((await rejection(dispatch('forgetApiKey', undefined, contentScript))).kind).toBe('bad_request');
    expect((await rejection(dispatch('clearVerdictCache', undefined, contentScript))).kind).toBe(
      'bad_request',
    );
    expect(await getApiKey()).toBe('secret-key');
    expect(await dispatch('forgetApiKey', undefined, optionsTab)).toMatchObject({ hasApiKey: false });
    expect(await getApiKey()).toBe('');
    const { cleared } = await dispatch('clearVerdictCache', undefined, optionsTab);
    expect(cleared).toBeGreaterThanOrEqual(1);
    expect(await getCached('bob@example.com')).toBeNull();
    expect(await getRecent(10)).toEqual([]);
  });
});
