// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { until } from '@/components/testing/wait';

const sent: { type: string; data: unknown }[] = [];
let enabledSites: string[] = [];
vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string, data?: unknown) => {
    sent.push({ type, data });
    return type === 'getSettings' ? { enabledSites } : { injected: true };
  }),
}));
const disabled: string[] = [];
vi.mock('./enable-site', () => ({
  enableSite: vi.fn(async (site: string) => ({ ok: true, site })),
  disableSite: vi.fn(async (site: string) => {
    disabled.push(site);
  }),
}));

const { SiteToggle } = await import('./site-toggle');

const buttonTexts = () => [...document.querySelectorAll('button')].map((b) => b.textContent);

describe('SiteToggle', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    sent.length = 0;
    disabled.length = 0;
    enabledSites = [];
    document.body.replaceChildren();
    Object.assign(fakeBrowser, {
      tabs: { ...fakeBrowser.tabs, query: vi.fn(async () => [{ id: 7, url: 'https://crm.example.com/x' }]) },
    });
  });

  it('offers "Enable on this site" and a one-shot "Check this page" for the active tab', async () => {
    render(<SiteToggle />, document.body.appendChild(document.createElement('div')));
    await until(() => expect(buttonTexts()).toEqual(['Enable on this site', 'Check this page']));
    await act(() => (document.querySelectorAll('button')[1] as HTMLButtonElement).click());
    await until(() =>
      expect(document.querySelector('[role="status"]')?.textContent).toBe(
        'Checking the addresses on this page.',
      ),
    );
    expect(sent.at(-1)).toEqual({ type: 'checkThisPage', data: { tabId: 7 } });
  });

  it('shows marking as on when a parent domain is enabled, and turns that site off', async () => {
    enabledSites = ['other.test', 'example.com'];
    render(<SiteToggle />, document.body.appendChild(document.createElement('div')));
    await until(() => expect(buttonTexts()[0]).toBe('Disable on this site'));
    const toggle = document.querySelectorAll('button')[0] as HTMLButtonElement;
    await act(() => toggle.click());
    await until(() =>
      expect(document.querySelector('[role="status"]')?.textContent).toBe('Marking is off on example.com.'),
    );
    expect(disabled).toEqual(['example.com']);
    expect(toggle.textContent).toBe('Enable on this site');
  });
});
