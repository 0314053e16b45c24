import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  createSettingsItem,
  DEFAULT_SETTINGS,
  getSettings,
  migrateV1,
  migrateV2,
  migrateV3,
  migrateV4,
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
      sendGuardOffSites: [],
      sendGuardRisky: false,
      dailyAutoCap: 200,
      sendersOnSight: false,
    });
    expect(await item.getMeta()).toEqual({ v: SETTINGS_VERSION });
  });

  it('migrates a stored v2 value: the send guard on for every enabled site, not warning for risky', async () => {
    const v2 = {
      serviceUrl: 'https://verify.example.com',
      defaultMode: 'catch_all',
      cacheTtlHours: 24,
      enabledSites: ['mail.google.com', 'outlook.office.com'],
      autoVerifyBudget: 40,
    };
    await fakeBrowser.storage.local.set({ settings: v2, settings$: { v: 2 } });
    const item = createSettingsItem();
    expect(await item.getValue()).toEqual({
      ...v2,
      sendGuardOffSites: [],
      sendGuardRisky: false,
      dailyAutoCap: 200,
      sendersOnSight: false,
    });
    expect(await item.getMeta()).toEqual({ v: SETTINGS_VERSION });
  });

  it('migrates a stored v3 value: the daily cap at its default; a valid stored cap is kept', async () => {
    const v3 = { ...DEFAULT_SETTINGS, autoVerifyBudget: 10, sendGuardRisky: true } as Record<string, unknown>;
    delete v3.dailyAutoCap;
    await fakeBrowser.storage.local.set({ settings: v3, settings$: { v: 3 } });
    expect(await createSettingsItem().getValue()).toEqual({ ...v3, dailyAutoCap: 200 });
    expect(migrateV3({ dailyAutoCap: 50 }).dailyAutoCap).toBe(50);
    expect(migrateV3({ dailyAutoCap: -1 }).dailyAutoCap).toBe(200);
  });

  it('migrates a stored v4 value: senders of received mail wait for a click; a stored choice is kept', async () => {
    const v4 = { ...DEFAULT_SETTINGS, autoVerifyBudget: 12 } as Record<string, unknown>;
    delete v4.sendersOnSight;
    await fakeBrowser.storage.local.set({ settings: v4, settings$: { v: 4 } });
    expect(await createSettingsItem().getValue()).toEqual({ ...v4, sendersOnSight: false });
    expect(migrateV4({ sendersOnSight: true }).sendersOnSight).toBe(true);
    expect(migrateV4({ sendersOnSight: 'yes' }).sendersOnSight).toBe(false);
  });

  it('keeps the send guard options of a v3 value and drops bad ones', () => {
    expect(migrateV2({ sendGuardOffSites: ['Mail.Google.com', 3], sendGuardRisky: true })).toMatchObject({
      sendGuardOffSites: ['mail.google.com'],
      sendGuardRisky: true,
    });
    expect(migrateV2({ sendGuardRisky: 'yes' }).sendGuardRisky).toBe(false);
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

describe('stored values that are corrupt, partial, or from another version', () => {
  const stored = async (value: unknown, version: number | null) => {
    await fakeBrowser.storage.local.set(
      (version === null ? { settings: value } : { settings: value, settings$: { v: version } }) as {
        settings: unknown;
      },
    );
    return createSettingsItem();
  };

  it('keeps every good field and gives each bad one its default; unknown fields are dropped', async () => {
    await stored(
      {
        serviceUrl: 5,
        defaultMode: 'fast',
        cacheTtlHours: 'x',
        enabledSites: ['A.example', 7, null],
        autoVerifyBudget: -3,
        apiKey: 'should-not-travel',
      },
      SETTINGS_VERSION,
    );
    expect(await getSettings()).toEqual({ ...DEFAULT_SETTINGS, enabledSites: ['a.example'] });
  });

  it('reads a missing, null or non-object value as the defaults', async () => {
    for (const value of [null, 42, 'text', []]) {
      fakeBrowser.reset();
      await stored(value, SETTINGS_VERSION);
      expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
    }
  });

  it('migrates a v1 value with corrupt fields instead of failing the migration', async () => {
    const item = await stored({ enabledSites: ['crm.example.com'], cacheTtlHours: null, defaultMode: 3 }, 1);
    expect(await item.getValue()).toEqual({ ...DEFAULT_SETTINGS, enabledSites: ['crm.example.com'] });
    expect(await item.getMeta()).toEqual({ v: SETTINGS_VERSION });
  });

  it('still reads what a newer version wrote (after a downgrade)', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await stored(
      { ...DEFAULT_SETTINGS, serviceUrl: 'https://v.example', enabledSites: 'a.example,b.example' },
      9,
    );
    expect(await getSettings()).toMatchObject({
      serviceUrl: 'https://v.example',
      enabledSites: ['a.example', 'b.example'],
    });
    quiet.mockRestore();
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

  it('normalizes sites to host names, dropping what is none', () => {
    expect(normalizeSites(['HTTP://127.0.0.1:5173/page', 'a.example ', 'a.example'])).toEqual([
      '127.0.0.1',
      'a.example',
    ]);
    expect(normalizeSites(['*.crm.example.com', 'two words', 'x<y>.example', ''])).toEqual([
      'crm.example.com',
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
