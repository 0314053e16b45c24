import 'fake-indexeddb/auto';
import { get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { bindApiKey, getApiKey, getApiKeyFor, getSavedKey, migrateKeyV1, setApiKey } from './api-key';
import { idbStore } from './idb';
import { updateSettings } from './settings';

const A = 'https://a.example.com';
const B = 'https://b.example.com';

beforeEach(async () => {
  fakeBrowser.reset();
  await setApiKey('', '');
});

describe('the API key', () => {
  it('is kept in IndexedDB, trimmed, and never in extension storage', async () => {
    await setApiKey('  secret-key  ', A);
    expect(await getApiKey()).toBe('secret-key');
    const everything = JSON.stringify([
      await fakeBrowser.storage.local.get(),
      await fakeBrowser.storage.sync.get(),
      await fakeBrowser.storage.session.get(),
    ]);
    expect(everything).not.toContain('secret-key');
  });

  it('is cleared by an empty string', async () => {
    await setApiKey('k', A);
    await setApiKey('', A);
    expect(await getApiKey()).toBe('');
    expect(await getSavedKey()).toBeNull();
  });

  it('is handed out only for the origin it was saved for', async () => {
    await setApiKey('k', A);
    expect(await getApiKeyFor(A)).toBe('k');
    expect(await getApiKeyFor(B)).toBe('');
    expect(await getApiKeyFor('')).toBe('');
    expect(await bindApiKey(B)).toBe(true);
    expect(await getApiKeyFor(A)).toBe('');
    expect(await getApiKeyFor(B)).toBe('k');
  });
});

describe('version 1 → 2', () => {
  it('binds a key stored as a bare string to the origin of the saved service URL', async () => {
    await updateSettings({ serviceUrl: `${A}/v1` });
    await set('apiKey', '  old-key ', idbStore('secrets'));
    expect(await getSavedKey()).toEqual({ key: 'old-key', origin: A });
    expect(await get('apiKey', idbStore('secrets'))).toEqual({ version: 2, key: 'old-key', origin: A });
    expect(await getApiKeyFor(B)).toBe('');
  });

  it('reads an empty or corrupt version 1 as no key', () => {
    expect(migrateKeyV1('', A)).toBeNull();
    expect(migrateKeyV1(42, A)).toBeNull();
    expect(migrateKeyV1('k', 'not a url')).toEqual({ version: 2, key: 'k', origin: '' });
  });

  it('drops a stored value of no known shape', async () => {
    await set('apiKey', { version: 9, secret: 'x' }, idbStore('secrets'));
    expect(await getSavedKey()).toBeNull();
  });
});
