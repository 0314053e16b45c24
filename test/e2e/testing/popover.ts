/**
 * The badge popover as a user meets it: found through the accessibility tree (it lives in a
 * closed shadow root), its buttons pressed with trusted mouse clicks.
 */
import type { Page } from 'puppeteer-core';
import { waitFor } from './process-guard';

/** Clicks a popover button by its name; the popover redraws as verdicts arrive, so a stale node is looked up again. */
export async function pressPopoverButton(page: Page, name: string): Promise<void> {
  await waitFor(
    async () => {
      const button = await page.waitForSelector(`::-p-aria([name="${name}"][role="button"])`, {
        timeout: 5_000,
      });
      return button?.click().then(
        () => true,
        () => false,
      );
    },
    15_000,
    `the ${name} button`,
  );
}

/**
 * Waits until the open popover's text matches `pattern`, and returns the text and its box. The
 * popover is the dialog named "Verimark: …" (a compose window is a dialog too).
 */
export async function popoverSaying(page: Page, pattern: RegExp) {
  let last = '';
  return waitFor(
    async () => {
      for (const dialog of await page.$$('::-p-aria([role="dialog"])')) {
        const label = await dialog.evaluate((el) => el.getAttribute('aria-label') ?? '').catch(() => '');
        if (!label.startsWith('Verimark')) continue;
        last = await dialog.evaluate((el) => el.textContent ?? '').catch(() => '');
        const box = await dialog.boundingBox();
        if (box && pattern.test(last)) return { text: last, box };
      }
      return undefined;
    },
    20_000,
    `the popover to say ${pattern}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; it says: ${last}`);
  });
}
