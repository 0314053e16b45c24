// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { SettingsView } from '@/lib/shared/views';
import { OptionsApp } from './options-app';
import { buttonIn, flush, labelledIn, useOptionsPage } from './testing/options-page';

const sent: { type: string; data: unknown }[] = [];
let answers: Record<string, unknown> = {};

vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data: unknown) => {
    sent.push({ type, data });
    const answer = answers[type];
    return typeof answer === 'function' ? answer(data) : answer;
  }),
}));

const settings: SettingsView = {
  serviceUrl: 'https://verify.example.com',
  hasApiKey: true,
  apiKeyHint: 'vm_…2xs',
  apiKeyElsewhere: null,
  defaultMode: 'catch_all',
  cacheTtlHours: 168,
  enabledSites: [],
  autoVerifyBudget: 25,
  sendGuardOffSites: [],
  sendGuardRisky: false,
  sendersOnSight: false,
  dailyAutoCap: 200,
};

const page = useOptionsPage(() => {
  sent.length = 0;
  answers = {
    getSettings: settings,
    forgetApiKey: { ...settings, hasApiKey: false, apiKeyHint: '' },
    clearVerdictCache: { cleared: 12 },
    saveSettings: (patch: Partial<SettingsView>) => ({ ...settings, ...patch }),
  };
});
const button = (text: string) => buttonIn(page.root, text);
const dataStatus = () => page.root.querySelector('[data-testid=data-status]')?.textContent ?? '';
const formStatus = () => page.root.querySelector('[data-testid=options-status]')?.textContent ?? '';

describe('Stored data', () => {
  it('"Forget API key" removes the key and says so; the key hint goes', async () => {
    expect(page.root.querySelector('[data-testid=key-fingerprint]')).not.toBeNull();
    await act(() => button('Forget API key').click());
    await flush();
    expect(sent.map((m) => m.type)).toContain('forgetApiKey');
    expect(dataStatus()).toBe('The API key was removed from this browser.');
    expect(page.root.querySelector('[data-testid=key-fingerprint]')).toBeNull();
    await act(() => button('Forget API key').click());
    await flush();
    expect(dataStatus()).toBe('No API key is stored.');
    expect(sent.filter((m) => m.type === 'forgetApiKey')).toHaveLength(1);
  });

  it('"Clear cached verdicts" says how many were removed', async () => {
    await act(() => button('Clear cached verdicts').click());
    await flush();
    expect(dataStatus()).toBe(
      'Cached verdicts cleared (12 removed). Addresses will be verified again when asked.',
    );
    const status = page.root.querySelector('[data-testid=data-status]');
    expect(status?.getAttribute('role')).toBe('status');
  });

  it('are real buttons (reached and pressed with the keyboard)', () => {
    for (const text of ['Forget API key', 'Clear cached verdicts']) {
      const found = button(text);
      expect(found.type).toBe('button');
      expect(found.tabIndex).toBe(0);
    }
  });
});

describe('a key saved for another origin', () => {
  it('is named with its origin, and used here only after an explicit confirmation', async () => {
    answers.getSettings = {
      ...settings,
      serviceUrl: 'https://other.example.net/api',
      hasApiKey: false,
      apiKeyHint: '',
      apiKeyElsewhere: 'https://verify.example.com',
    };
    answers.saveSettings = () => ({ ...settings, serviceUrl: 'https://other.example.net/api' });
    await rerender();
    expect(page.root.querySelector('[data-testid=key-elsewhere]')?.textContent).toContain(
      'The stored API key was saved for https://verify.example.com and is not sent to https://other.example.net.',
    );
    await act(() => button('Use the stored key at https://other.example.net').click());
    await flush();
    expect(sent.find((m) => m.type === 'saveSettings')?.data).toEqual({ useSavedKeyHere: true });
    expect(formStatus()).toBe('The stored API key is now used at https://other.example.net.');
    expect(page.root.querySelector('[data-testid=key-elsewhere]')).toBeNull();
  });
});

describe('the daily cap', () => {
  it('is a number field saved with the other settings', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    const field = labelledIn(page.root, 'Credits spent without a click, per day (all tabs)');
    expect(field.type).toBe('number');
    expect(field.value).toBe('200');
    await act(() => {
      field.value = '50';
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(() => button('Save').click());
    await flush();
    expect(sent.find((m) => m.type === 'saveSettings')?.data).toMatchObject({ dailyAutoCap: 50 });
  });
});

/** Renders the page again, from the current answers. */
async function rerender() {
  await act(() => render(null, page.root));
  await act(() => render(<OptionsApp />, page.root));
  await flush();
}
