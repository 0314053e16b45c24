// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type * as Suggested from '@/components/site-toggle/suggested-sites';
import type { SettingsView } from '@/lib/shared/views';
import { buttonIn, flush, useOptionsPage } from './testing/options-page';

const { HOSTILE } = vi.hoisted(() => ({ HOSTILE: '<img src=x onerror="globalThis.pwned=1">' }));
const real = await vi.importActual<typeof Suggested>('../site-toggle/suggested-sites');

vi.mock('@/components/site-toggle/suggested-sites', async (importOriginal) => {
  const original = await importOriginal<typeof Suggested>();
  return { SUGGESTED_SITES: [...original.SUGGESTED_SITES, { site: 'hostile.test', label: HOSTILE }] };
});

const sent: { type: string; data: unknown }[] = [];
let sites: string[] = [];

vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data: { enabledSites?: string[] }) => {
    sent.push({ type, data });
    if (type === 'saveSettings' && data.enabledSites) sites = data.enabledSites;
    const view: SettingsView = {
      serviceUrl: '',
      hasApiKey: false,
      apiKeyHint: '',
      defaultMode: 'catch_all',
      cacheTtlHours: 168,
      enabledSites: sites,
      autoVerifyBudget: 25,
      sendGuardOffSites: [],
      sendGuardRisky: false,
      sendersOnSight: false,
      dailyAutoCap: 200,
      apiKeyElsewhere: null,
    };
    return view;
  }),
}));

const page = useOptionsPage(() => {
  sent.length = 0;
  sites = [];
});
const list = () => page.root.querySelector<HTMLUListElement>('ul.suggested');
const status = () =>
  page.root.querySelector('section[aria-labelledby=sites-heading] [role=status]')?.textContent ?? '';
const suggestion = (text: string) => buttonIn(list() ?? page.root, text);

describe('suggested webmail and CRM sites', () => {
  it('offers every suggested site as a labelled, focusable toggle button', () => {
    const heading = document.getElementById(list()?.getAttribute('aria-labelledby') ?? '');
    expect(heading?.textContent).toBe('Common webmail and CRM sites');
    for (const { site, label } of real.SUGGESTED_SITES) {
      const button = suggestion(`${label} (${site})`);
      expect(button.type).toBe('button');
      expect(button.disabled).toBe(false);
      expect(button.tabIndex).toBeGreaterThanOrEqual(0);
      expect(button.getAttribute('aria-pressed')).toBe('false');
    }
    expect(real.SUGGESTED_SITES.map((s) => s.site)).toContain('mail.google.com');
  });

  it('renders names as text, never as markup', () => {
    const button = suggestion(`${HOSTILE} (hostile.test)`);
    expect(button.querySelector('img')).toBeNull();
    expect(page.root.querySelector('img')).toBeNull();
  });

  it('asks for the permission straight from the click, then enables the site; a second click disables it', async () => {
    const request = vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    const release = vi.spyOn(fakeBrowser.permissions, 'remove').mockImplementation(async () => true);
    suggestion('Gmail (mail.google.com)').click();
    // Still inside the click: the browser only shows the prompt during a user gesture.
    expect(request).toHaveBeenCalledWith({ origins: ['*://*.mail.google.com/*'] });
    await flush();
    expect(sites).toEqual(['mail.google.com']);
    expect(suggestion('Gmail (mail.google.com)').getAttribute('aria-pressed')).toBe('true');
    expect(page.root.querySelector('.sites')?.textContent).toContain('mail.google.com');
    expect(status()).toBe('Marking is on for mail.google.com.');

    await act(() => suggestion('Gmail (mail.google.com)').click());
    await flush();
    expect(sites).toEqual([]);
    expect(release).toHaveBeenCalledWith({ origins: ['*://*.mail.google.com/*'] });
    expect(suggestion('Gmail (mail.google.com)').getAttribute('aria-pressed')).toBe('false');
    expect(status()).toBe('Marking is off on mail.google.com.');
  });

  it('keeps other enabled sites when one is added', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => true);
    sites = ['crm.example.com'];
    await act(() => suggestion('HubSpot (app.hubspot.com)').click());
    await flush();
    expect(sites).toEqual(['crm.example.com', 'app.hubspot.com']);
  });

  it('enables nothing when the permission is refused', async () => {
    vi.spyOn(fakeBrowser.permissions, 'request').mockImplementation(async () => false);
    await act(() => suggestion('Zoho CRM (crm.zoho.com)').click());
    await flush();
    expect(sent.map((m) => m.type)).not.toContain('saveSettings');
    expect(suggestion('Zoho CRM (crm.zoho.com)').getAttribute('aria-pressed')).toBe('false');
    expect(page.root.querySelector('[role=alert]')?.textContent).toMatch(/not granted/);
  });
});
