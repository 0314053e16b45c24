import { PATHS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ok } from '@/lib/api/testing/scripted-server';
import { countRequests, useFakeService } from '@/lib/background/testing/setup';
import { getAccount, keyFingerprint, toAccountView } from './account';
import { testConnection } from './settings-handlers';

describe('keyFingerprint', () => {
  it.each([
    ['vm_3f9a1c0d4e5b6a7c82xs', 'vm_…2xs'],
    ['  sk_live_abcdefghijk  ', 'sk_…ijk'],
    ['abcdefghijklmnop', 'ab…nop'],
    ['short', '…'],
    ['', ''],
  ])('%j → %j', (key, shown) => {
    expect(keyFingerprint(key)).toBe(shown);
  });
});

describe('toAccountView', () => {
  it('maps the service’s fields, and null (no /account) to null', () => {
    expect(toAccountView({ credits: 12, expires_at: null, label: 'sales' })).toEqual({
      credits: 12,
      expiresAt: null,
      label: 'sales',
    });
    expect(toAccountView(null)).toBeNull();
  });
});

describe('getAccount against a service without GET /account', () => {
  const env = useFakeService();

  it('asks once, then not again until the browser restarts (session storage cleared)', async () => {
    for (let i = 0; i < 5; i++) expect(await getAccount()).toBeNull();
    expect(countRequests(env.server.requests, PATHS.account)).toBe(1);
    // A browser restart clears session storage: asked once more.
    await fakeBrowser.storage.session.clear();
    expect(await getAccount()).toBeNull();
    expect(countRequests(env.server.requests, PATHS.account)).toBe(2);
  });

  it('keeps asking a service that has the route', async () => {
    env.service.state.override[PATHS.account] = ok('Account fetched successfully', {
      credits: 7,
      expires_at: null,
      label: null,
    });
    expect(await getAccount()).toMatchObject({ credits: 7 });
    expect(await getAccount()).toMatchObject({ credits: 7 });
    expect(countRequests(env.server.requests, PATHS.account)).toBe(2);
  });
});

describe('Test connection against a service without GET /account', () => {
  const env = useFakeService();

  it('counts as the one ask: the popup does not ask again', async () => {
    expect(await testConnection({})).toEqual({ ok: true, account: null });
    expect(await getAccount()).toBeNull();
    expect(countRequests(env.server.requests, PATHS.account)).toBe(1);
  });
});
