/**
 * A changed service address, in Chromium: the saved key stays bound to the origin it was saved
 * for (docs/design.md §5), and the popup says so — it names the previous address and the new
 * one and asks for the key again — instead of the first-run "Connect Verimark" card. Screenshots
 * in light and dark (test-results/screenshots/popup-key-moved-*.png), checked with axe. Also the
 * options page's "Verify senders of received mail on sight", off by default (popup-options-senders-*.png).
 */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { sendFromExtensionPage } from './testing/content-pages';
import { click } from './testing/dom';
import { useExtension } from './testing/extension-suite';
import { screenshotBothThemes, waitForSelectorText } from './testing/popup-page';
import { launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium });

async function openPopupBare(): Promise<Page> {
  const page = await e2e.session.openExtensionPage('popup.html');
  await page.setViewport({ width: 380, height: 600 });
  return page;
}

describe('the popup after the service address changed', () => {
  it('says the saved key belongs to the previous address and asks for it again', async () => {
    const previous = new URL(e2e.service.baseUrl).origin;
    // The same service under another origin (localhost instead of 127.0.0.1): a new address.
    const moved = e2e.service.baseUrl.replace('127.0.0.1', 'localhost');
    const options = await e2e.session.openExtensionPage('options.html');
    const view = await sendFromExtensionPage<{ hasApiKey: boolean; apiKeyElsewhere: string | null }>(
      options,
      'saveSettings',
      { serviceUrl: moved },
    );
    await options.close();
    expect(view).toMatchObject({ hasApiKey: false, apiKeyElsewhere: previous });

    const page = await openPopupBare();
    await waitForSelectorText(page, '[data-testid=setup]', /Enter your API key again/);
    const text = await page.$eval('[data-testid=setup]', (el) => el.textContent ?? '');
    expect(text).toContain(`belongs to the previous address, ${previous}`);
    expect(text).toContain(moved);
    expect(text).not.toMatch(/Connect Verimark/);
    await screenshotBothThemes(page, 'key-moved');
    const opened = e2e.session.browser.waitForTarget((t) => t.url().endsWith('/options.html'), {
      timeout: 15_000,
    });
    await click(page, 'Enter the API key');
    await (await opened).page().then((p) => p?.close());
    await page.close();
  });

  it('options: "Verify senders of received mail on sight" is there, off by default, with its reason', async () => {
    const page = await e2e.session.openExtensionPage('options.html');
    await page.setViewport({ width: 800, height: 900 });
    await waitForSelectorText(page, '#guard-heading', /./);
    const option = await page.evaluate(() => {
      const label = [...document.querySelectorAll('label')].find((l) =>
        l.textContent?.includes('Verify senders of received mail on sight'),
      );
      const box = label?.querySelector('input');
      return {
        checked: box?.checked,
        hint: document.getElementById(box?.getAttribute('aria-describedby') ?? '')?.textContent,
      };
    });
    expect(option.checked).toBe(false);
    expect(option.hint).toMatch(/until you click their mark/);
    await page.$eval('#guard-heading', (el) => el.scrollIntoView());
    await screenshotBothThemes(page, 'options-senders');
    await page.close();
  });
});
