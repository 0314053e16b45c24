import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  createSettingsItem,
  DEFAULT_SETTINGS,
  getSettings,
  migrateV1,
  normalizeSites,
  onEnabledSitesChange,
  SETTINGS_VERSION,
  updateSettings,
} from './settings';

beforeEach(() => fakeBrowser.reset());

describe('settings migrations', () => {
  it('migrates a stored v1 value to the current version on first read', async () => {
    await fakeBrowser.storage.local.set({
      settings: {
        serviceUrl: 'https://verify.example.com',
        defaultMode: 'non_catch_all',
        cacheTtlHours: 12,
        enabledSites: ' CRM.example.com, https://mail.example.org/inbox ,,crm.example.com',
      },
      settings$: { v: 1 },
    });
    const item = createSettingsItem();
    expect(await item.getValue()).toEqual({
      serviceUrl: 'https://verify.example.com',
      defaultMode: 'non_catch_all',
      cacheTtlHours: 12,
      enabledSites: ['crm.example.com', 'mail.example.org'],
      autoVerifyBudget: DEFAULT_SETTINGS.autoVerifyBudget,
    });
    expect(await item.getMeta()).toEqual({ v: SETTINGS_VERSION });
  });

  it('replaces an unknown v1 mode with the default', () => {
    const v1 = { serviceUrl: '', defaultMode: 'fast', cacheTtlHours: 1, enabledSites: '' };
    expect(migrateV1(v1).defaultMode).toBe('catch_all');
  });

  it('starts a fresh install on the defaults, at the current version', async () => {
    const item = createSettingsItem();
    expect(await item.getValue()).toEqual(DEFAULT_SETTINGS);
    await item.setValue({ ...DEFAULT_SETTINGS, cacheTtlHours: 3 });
    expect(await fakeBrowser.storage.local.get('settings$')).toEqual({ settings$: { v: SETTINGS_VERSION } });
  });
});

describe('settings access', () => {
  it('updates fields and keeps the others', async () => {
    await updateSettings({ defaultMode: 'non_catch_all' });
    await updateSettings({ cacheTtlHours: 2 });
    expect(await getSettings()).toMatchObject({
      defaultMode: 'non_catch_all',
      cacheTtlHours: 2,
      serviceUrl: '',
    });
  });

  it('never stores an API key in storage.local', async () => {
    await updateSettings({ serviceUrl: 'https://x.example' });
    expect(JSON.stringify(await fakeBrowser.storage.local.get())).not.toMatch(/apiKey/i);
  });

  it('normalizes sites to host names', () => {
    expect(normalizeSites(['HTTP://127.0.0.1:5173/page', 'a.example ', 'a.example'])).toEqual([
      '127.0.0.1',
      'a.example',
    ]);
  });

  it('calls the enabled-sites hook when the list changes, not for other fields', async () => {
    const calls: string[][] = [];
    const stop = onEnabledSitesChange((sites) => calls.push(sites));
    await updateSettings({ enabledSites: ['a.example'] });
    await updateSettings({ cacheTtlHours: 5 });
    stop();
    await updateSettings({ enabledSites: [] });
    expect(calls).toEqual([['a.example']]);
  });
});
