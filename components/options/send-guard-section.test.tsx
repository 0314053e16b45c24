// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsPatch, SettingsView } from '@/lib/shared/views';
import { SendGuardSection } from './send-guard-section';
import { flush } from './testing/options-page';

const saved: SettingsPatch[] = [];
vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (_type: string, patch: SettingsPatch) => {
    saved.push(patch);
    return { ...view, ...patch };
  }),
}));

let view: SettingsView;
let root: HTMLElement;
let shown: SettingsView | null;

const draw = () => act(() => render(<SendGuardSection view={view} onSaved={(v) => (shown = v)} />, root));
const checkbox = (text: string) => {
  const label = [...root.querySelectorAll('label')].find((l) => l.textContent?.trim() === text);
  const input = label?.querySelector('input');
  if (!input) throw new Error(`no checkbox ${text}`);
  return input;
};
const press = async (input: HTMLInputElement) => {
  await act(() => input.click());
  await flush();
};

beforeEach(() => {
  saved.length = 0;
  shown = null;
  view = {
    serviceUrl: '',
    hasApiKey: true,
    apiKeyHint: '',
    defaultMode: 'catch_all',
    cacheTtlHours: 168,
    enabledSites: ['mail.google.com', 'outlook.office.com'],
    autoVerifyBudget: 25,
    sendGuardOffSites: ['outlook.office.com'],
    sendGuardRisky: false,
    sendersOnSight: false,
    dailyAutoCap: 200,
    apiKeyElsewhere: null,
  };
  root = document.createElement('div');
  document.body.append(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
});

describe('the send guard options', () => {
  it('shows one checkbox per enabled site, on unless switched off, and risky off', async () => {
    await draw();
    expect(checkbox('Warn before sending on mail.google.com').checked).toBe(true);
    expect(checkbox('Warn before sending on outlook.office.com').checked).toBe(false);
    expect(checkbox('Also warn for risky recipients').checked).toBe(false);
  });

  it('saves a site switched off or on, and the risky option', async () => {
    await draw();
    await press(checkbox('Warn before sending on mail.google.com'));
    expect(saved.at(-1)).toEqual({ sendGuardOffSites: ['outlook.office.com', 'mail.google.com'] });
    await press(checkbox('Warn before sending on outlook.office.com'));
    expect(saved.at(-1)).toEqual({ sendGuardOffSites: [] });
    await press(checkbox('Also warn for risky recipients'));
    expect(saved.at(-1)).toEqual({ sendGuardRisky: true });
    expect(shown?.sendGuardRisky).toBe(true);
  });

  it('verifies senders of received mail on sight only when switched on (off by default)', async () => {
    await draw();
    const senders = checkbox('Verify senders of received mail on sight');
    expect(senders.checked).toBe(false);
    await press(senders);
    expect(saved.at(-1)).toEqual({ sendersOnSight: true });
    expect(shown?.sendersOnSight).toBe(true);
  });

  it('says to enable a site first when none is enabled', async () => {
    view = { ...view, enabledSites: [] };
    await draw();
    expect(root.textContent).toContain('Enable a site above to use the send guard.');
  });
});
