import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { getApiKey, setApiKey } from './api-key';

beforeEach(async () => {
  fakeBrowser.reset();
  await setApiKey('');
});

describe('the API key', () => {
  it('is kept in IndexedDB, trimmed, and never in extension storage', async () => {
    await setApiKey('  secret-key  ');
    expect(await getApiKey()).toBe('secret-key');
    const everything = JSON.stringify([
      await fakeBrowser.storage.local.get(),
      await fakeBrowser.storage.sync.get(),
      await fakeBrowser.storage.session.get(),
    ]);
    expect(everything).not.toContain('secret-key');
  });

  it('is cleared by an empty string', async () => {
    await setApiKey('k');
    await setApiKey('');
    expect(await getApiKey()).toBe('');
  });
});
