// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { SettingsView } from '@/lib/shared/views';
import { buttonIn, flush, labelledIn, useOptionsPage } from './testing/options-page';

const sent: { type: string; data: unknown }[] = [];
let answers: Record<string, unknown> = {};

vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data: unknown) => {
    sent.push({ type, data });
    const answer = answers[type];
    if (answer instanceof Error) throw answer;
    return typeof answer === 'function' ? answer(data) : answer;
  }),
}));

const settings: SettingsView = {
  serviceUrl: '',
  hasApiKey: false,
  apiKeyHint: '',
  defaultMode: 'catch_all',
  cacheTtlHours: 168,
  enabledSites: [],
  autoVerifyBudget: 25,
  sendGuardOffSites: [],
  sendGuardRisky: false,
  sendersOnSight: false,
  dailyAutoCap: 200,
  apiKeyElsewhere: null,
};

const page = useOptionsPage(() => {
  sent.length = 0;
  answers = {
    getSettings: settings,
    saveSettings: (patch: Partial<SettingsView> & { apiKey?: string }) => ({
      ...settings,
      ...patch,
      hasApiKey: true,
    }),
  };
});
const byLabel = (text: string) => labelledIn(page.root, text);
const button = (text: string) => buttonIn(page.root, text);
const status = () => page.root.querySelector('[role=status]')?.textContent ?? '';

async function type(input: HTMLInputElement, value: string) {
  await act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the options page', () => {
  it('has labelled Service URL and API key fields, Save and Test connection', () => {
    expect(byLabel('Service URL').type).toBe('url');
    expect(byLabel('API key').type).toBe('password');
    expect(button('Save')).toBeTruthy();
    expect(button('Test connection')).toBeTruthy();
  });

  it('refuses a plain-http URL outside localhost without saving', async () => {
    await type(byLabel('Service URL'), 'http://verify.example.com');
    await act(() => button('Save').click());
    await flush();
    expect(status()).toMatch(/https/);
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
  });

  it('refuses an empty or non-numeric cache lifetime instead of saving 0 (no cache)', async () => {
    await type(byLabel('Cache lifetime (hours)'), '');
    await act(() => button('Save').click());
    await flush();
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
    expect(status()).toMatch(/Cache lifetime/);
    await type(byLabel('Cache lifetime (hours)'), '12');
    await type(byLabel('Automatic verifications per page'), ' ');
    await act(() => button('Save').click());
    await flush();
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
    expect(status()).toMatch(/Automatic verifications/);
  });

  it('asks for the service origin, then saves URL and key', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    await type(byLabel('Service URL'), 'https://verify.example.com/');
    await type(byLabel('API key'), 'k-123');
    await act(() => button('Save').click());
    await flush();
    expect(request).toHaveBeenCalledWith({ origins: ['https://verify.example.com/*'] });
    expect(sent.find((m) => m.type === 'saveSettings')?.data).toMatchObject({
      serviceUrl: 'https://verify.example.com/',
      apiKey: 'k-123',
    });
    expect(status()).toBe('Saved.');
    expect(byLabel('API key').value).toBe('');
  });

  it('does not save when the permission is refused', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => false);
    await type(byLabel('Service URL'), 'https://verify.example.com');
    await act(() => button('Save').click());
    await flush();
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
    expect(status()).toMatch(/not granted/);
  });

  it('reports each Test connection outcome', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    await type(byLabel('Service URL'), 'http://127.0.0.1:8787');
    const outcomes: [unknown, RegExp][] = [
      [{ ok: true }, /OK/],
      [{ ok: false, kind: 'invalid_key', message: 'Invalid API key' }, /Invalid key/],
      [{ ok: false, kind: 'payment_required', message: 'x' }, /Payment required/],
      [{ ok: false, kind: 'rate_limited', message: 'x' }, /Rate limited/],
      [{ ok: false, kind: 'unreachable', message: 'x' }, /Unreachable/],
    ];
    for (const [answer, text] of outcomes) {
      answers.testConnection = answer;
      await act(() => button('Test connection').click());
      await flush();
      expect(status()).toMatch(text);
    }
    expect(sent.filter((m) => m.type === 'testConnection').at(-1)?.data).toEqual({
      serviceUrl: 'http://127.0.0.1:8787',
    });
  });

  it('adds a site after its permission is granted, and removes it', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    const release = vi.spyOn(fakeBrowser.permissions, 'remove').mockImplementation(async () => true);
    let sites: string[] = [];
    answers.getSettings = () => ({ ...settings, enabledSites: sites });
    answers.saveSettings = (patch: { enabledSites: string[] }) => {
      sites = patch.enabledSites;
      return { ...settings, enabledSites: sites };
    };
    await type(byLabel('Add site'), 'https://CRM.example.com/contacts');
    await act(() => button('Add').click());
    await flush();
    expect(request).toHaveBeenCalledWith({ origins: ['*://*.crm.example.com/*'] });
    expect(sites).toEqual(['crm.example.com']);
    expect(page.root.querySelector('.sites')?.textContent).toContain('crm.example.com');
    await act(() => button('Remove crm.example.com').click());
    await flush();
    expect(sites).toEqual([]);
    expect(release).toHaveBeenCalled();
    expect(page.root.querySelector('.sites')).toBeNull();
  });

  it('does not add a site whose permission is refused', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => false);
    await type(byLabel('Add site'), 'crm.example.com');
    await act(() => button('Add').click());
    await flush();
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
    expect(page.root.querySelector('[role=alert]')?.textContent).toMatch(/not granted/);
  });
});

describe('the service permission', () => {
  it('is asked for a loopback service in a store build, and taken as granted in the test build', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    await type(byLabel('Service URL'), 'http://127.0.0.1:8787');
    await act(() => button('Save').click());
    await flush();
    expect(request).toHaveBeenCalledWith({ origins: ['http://127.0.0.1/*'] });
    request.mockClear();
    vi.stubGlobal('__VERIMARK_TEST_BUILD__', true);
    try {
      await act(() => button('Save').click());
      await flush();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(request).not.toHaveBeenCalled();
    expect(sent.filter((m) => m.type === 'saveSettings')).toHaveLength(2);
  });
});
