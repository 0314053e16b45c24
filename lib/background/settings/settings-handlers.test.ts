import { DESCRIPTIONS, ERRORS } from '@verimark/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@/lib/api/client';
import { fail, ok, startScriptedServer } from '@/lib/api/testing/scripted-server';
import { getClient } from '@/lib/background/core/service';
import { configure, resetBackground } from '@/lib/background/testing/setup';
import { getAccount } from './account';
import { contentConfig, getSettingsView, saveSettings, testConnection } from './settings-handlers';

let server: Awaited<ReturnType<typeof startScriptedServer>>;
const list = ok(DESCRIPTIONS.bulkFiles, { files: [], totalCount: 0, page: 1, pageSize: 1 });

beforeAll(async () => {
  server = await startScriptedServer(() => list);
});
afterAll(() => server.close());
beforeEach(async () => {
  await resetBackground();
  server.requests.length = 0;
});

describe('testConnection', () => {
  it('reports OK for a working URL and key, using the free list call', async () => {
    server.setScript((req) => (req.path === '/account' ? fail(404, 'Not Found') : list));
    expect(await testConnection({ serviceUrl: server.url, apiKey: 'k' })).toEqual({
      ok: true,
      account: null,
    });
    expect(server.requests[0]?.path).toBe('/verify/bulk/files');
    expect(server.requests[0]?.headers['x-api-key']).toBe('k');
  });

  it('tells the balance when the service has GET /account', async () => {
    server.setScript((req) =>
      req.path === '/account'
        ? ok('Account fetched successfully', { credits: 1979, expires_at: null, label: 'sales' })
        : list,
    );
    expect(await testConnection({ serviceUrl: server.url, apiKey: 'k' })).toEqual({
      ok: true,
      account: { credits: 1979, expiresAt: null, label: 'sales' },
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/verify/bulk/files', '/account']);
  });

  it('falls back to the stored URL and key', async () => {
    await configure(server.url, 'stored-key');
    expect(await testConnection({})).toMatchObject({ ok: true });
    expect(server.requests[0]?.headers['x-api-key']).toBe('stored-key');
  });

  it('never sends the saved key to a typed URL that is not saved (attack: a planted URL)', async () => {
    const other = await startScriptedServer(() => list);
    try {
      await configure(server.url, 'stored-key');
      expect(await testConnection({ serviceUrl: other.url })).toMatchObject({
        ok: false,
        kind: 'key_needed',
      });
      expect(await testConnection({ serviceUrl: other.url, apiKey: '  ' })).toMatchObject({
        kind: 'key_needed',
      });
      expect(other.requests).toHaveLength(0);
      // With the key typed on screen, the typed URL is tested with that key only.
      // (The list call, then the balance: both with that key.)
      expect(await testConnection({ serviceUrl: other.url, apiKey: 'typed-key' })).toMatchObject({
        ok: true,
      });
      expect(new Set(other.requests.map((r) => r.headers['x-api-key']))).toEqual(new Set(['typed-key']));
      // The saved URL (as typed, or written differently) still works with the saved key.
      expect(await testConnection({ serviceUrl: `${server.url}/` })).toMatchObject({ ok: true });
      expect(new Set(server.requests.map((r) => r.headers['x-api-key']))).toEqual(new Set(['stored-key']));
    } finally {
      await other.close();
    }
  });

  const cases: [number, string, string][] = [
    [401, ERRORS.invalidKey, 'invalid_key'],
    [402, ERRORS.paymentRequired, 'payment_required'],
    [429, ERRORS.rateLimited, 'rate_limited'],
    [500, 'boom', 'server'],
  ];
  for (const [status, message, kind] of cases) {
    it(`reports ${kind} for HTTP ${status}, asking only once`, async () => {
      server.setScript(() => fail(status, message, { 'retry-after': '1' }));
      expect(await testConnection({ serviceUrl: server.url, apiKey: 'k' })).toEqual({
        ok: false,
        kind,
        message,
      });
      expect(server.requests).toHaveLength(1);
    });
  }

  it('reports an unreachable service, a refused URL and a missing key', async () => {
    expect(await testConnection({ serviceUrl: 'http://127.0.0.1:1', apiKey: 'k' })).toMatchObject({
      ok: false,
      kind: 'unreachable',
    });
    expect(await testConnection({ serviceUrl: 'http://verify.example.com', apiKey: 'k' })).toMatchObject({
      kind: 'bad_url',
    });
    await configure(server.url, '');
    expect(await testConnection({ serviceUrl: server.url })).toMatchObject({ kind: 'invalid_key' });
  });
});

describe('saveSettings', () => {
  it('refuses non-HTTPS URLs except loopback', async () => {
    await expect(saveSettings({ serviceUrl: 'http://10.1.2.3:8787' })).rejects.toMatchObject({
      kind: 'bad_request',
    });
    expect((await saveSettings({ serviceUrl: 'http://localhost:8787/' })).serviceUrl).toBe(
      'http://localhost:8787',
    );
  });

  it('refuses an API key with characters no HTTP header can carry', async () => {
    await expect(saveSettings({ apiKey: 'abc\ndef' })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(saveSettings({ apiKey: 'clé' })).rejects.toMatchObject({ kind: 'bad_request' });
    expect((await saveSettings({ apiKey: '  vk_Abc-123.x  ' })).hasApiKey).toBe(true);
  });

  it('validates mode, cache lifetime and budget', async () => {
    await expect(saveSettings({ cacheTtlHours: -1 })).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(saveSettings({ autoVerifyBudget: Number.NaN })).rejects.toMatchObject({
      kind: 'bad_request',
    });
    const view = await saveSettings({ defaultMode: 'non_catch_all', cacheTtlHours: 6, autoVerifyBudget: 10 });
    expect(view).toMatchObject({
      defaultMode: 'non_catch_all',
      cacheTtlHours: 6,
      autoVerifyBudget: 10,
      hasApiKey: false,
    });
  });
});

describe('a saved key and its origin (attack: a typo or a planted service URL)', () => {
  beforeEach(() => server.setScript(() => list));
  it('never sends the old key to a new origin saved with an empty key field', async () => {
    const other = await startScriptedServer(() => list);
    try {
      await configure(server.url, 'old-key');
      const view = await saveSettings({ serviceUrl: other.url });
      expect(view).toMatchObject({ serviceUrl: other.url, hasApiKey: false, apiKeyHint: '' });
      expect(view.apiKeyElsewhere).toBe(new URL(server.url).origin);
      // What a poll, the popup and a test would ask next.
      await expect(getClient()).rejects.toMatchObject({ kind: 'not_configured' });
      await expect(getAccount()).rejects.toMatchObject({ kind: 'not_configured' });
      expect(await testConnection({})).toMatchObject({ ok: false });
      expect(other.requests.filter((r) => r.headers['x-api-key'] === 'old-key')).toHaveLength(0);
      // Back to the old origin: the key works there again.
      await saveSettings({ serviceUrl: server.url });
      expect((await getSettingsView()).hasApiKey).toBe(true);
      await (await getClient()).listFiles({ page: 1, pageSize: 1 });
      expect(server.requests.at(-1)?.headers['x-api-key']).toBe('old-key');
    } finally {
      await other.close();
    }
  });

  it('sends the key to a new origin once the user confirms it, or types a key there', async () => {
    const other = await startScriptedServer(() => list);
    try {
      await configure(server.url, 'old-key');
      const view = await saveSettings({ serviceUrl: other.url, useSavedKeyHere: true });
      expect(view).toMatchObject({ hasApiKey: true, apiKeyElsewhere: null });
      await (await getClient()).listFiles({ page: 1, pageSize: 1 });
      expect(other.requests.at(-1)?.headers['x-api-key']).toBe('old-key');
      await saveSettings({ serviceUrl: server.url, apiKey: 'new-key' });
      await (await getClient()).listFiles({ page: 1, pageSize: 1 });
      expect(server.requests.at(-1)?.headers['x-api-key']).toBe('new-key');
    } finally {
      await other.close();
    }
  });

  it('binds a key saved before any service URL to the first one', async () => {
    await saveSettings({ apiKey: 'early-key' });
    expect(await saveSettings({ serviceUrl: server.url })).toMatchObject({ hasApiKey: true });
    await (await getClient()).listFiles({ page: 1, pageSize: 1 });
    expect(server.requests.at(-1)?.headers['x-api-key']).toBe('early-key');
  });

  it('the client refuses to send a key to an origin other than its own', async () => {
    const client = createApiClient({ baseUrl: server.url, apiKey: 'k', keyOrigin: 'https://a.example.com' });
    await expect(client.listFiles({ page: 1, pageSize: 1 })).rejects.toMatchObject({
      kind: 'not_configured',
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('contentConfig: the send guard', () => {
  it('is on wherever marking is on, off on a site switched off, and tells the risky option', async () => {
    await saveSettings({ enabledSites: ['mail.google.com', 'outlook.office.com'] });
    expect(await contentConfig('https://mail.google.com/mail/u/0/')).toMatchObject({
      enabled: true,
      sendGuard: true,
      sendGuardRisky: false,
    });
    await saveSettings({ sendGuardOffSites: ['outlook.office.com'], sendGuardRisky: true });
    expect(await contentConfig('https://outlook.office.com/mail/')).toMatchObject({
      enabled: true,
      sendGuard: false,
    });
    expect(await contentConfig('https://mail.google.com/')).toMatchObject({
      sendGuard: true,
      sendGuardRisky: true,
    });
    expect(await contentConfig('https://crm.example.com/')).toMatchObject({
      enabled: false,
      sendGuard: false,
    });
  });

  it('carries the badges’ words, also where marking is off (“Check this page” marks there once)', async () => {
    const { badgeWords } = await contentConfig('https://crm.example.com/');
    expect(badgeWords?.statuses.unverified).toBe('Not verified yet');
    expect(badgeWords?.label).toBe('Verimark: \u0001, \u0002. Press for details.');
  });

  it('refuses options of the wrong type', async () => {
    await expect(saveSettings({ sendGuardRisky: 'yes' as unknown as boolean })).rejects.toThrow(
      'A setting has a value that is not allowed',
    );
  });
});
