/** Points the extension at a service the way a user does: through the options page (docs/design.md §5). */
import type { Page } from 'puppeteer-core';
import { click, control, fill } from './dom';
import { waitFor } from './process-guard';

interface PageOpener {
  openExtensionPage(path: string): Promise<Page>;
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** The options page's status line (role="status"), once it says something other than "…ing". */
export function statusText(page: Page, ms = 20_000): Promise<string> {
  return waitFor(
    () =>
      page.evaluate(() => {
        const text = (document.querySelector('[role="status"]')?.textContent ?? '')
          .replace(/\s+/g, ' ')
          .trim();
        return text !== '' && !/…$/.test(text) ? text : undefined;
      }),
    ms,
    'the options page status',
  );
}

export async function configureThroughOptions(
  session: PageOpener,
  serviceUrl: string,
  apiKey: string,
): Promise<void> {
  const page = await session.openExtensionPage('options.html');
  try {
    await fill(page, 'Service URL', serviceUrl);
    await fill(page, 'API key', apiKey);
    await click(page, 'Save');
    let status = await statusText(page);
    // A key the service refuses is stored only when the user confirms by pressing Save again.
    if (/^Not saved: the service refused/.test(status)) {
      const refused = status;
      await click(page, 'Save');
      status = await waitFor(
        async () => {
          const next = await statusText(page);
          return next !== refused ? next : undefined;
        },
        20_000,
        'the options page to save after the confirmation',
      );
    }
    if (!/^Saved\b/.test(status)) throw new Error(`The options page did not save: ${status}`);
  } finally {
    await page.close().catch(() => undefined);
  }
  // Saved means a freshly opened options page shows the new URL.
  const check = await session.openExtensionPage('options.html');
  try {
    await waitFor(
      async () => sameUrl(await (await control(check, 'Service URL')).evaluate((el) => el.value), serviceUrl),
      10_000,
      `the options page to show the service URL ${serviceUrl}`,
    );
  } finally {
    await check.close().catch(() => undefined);
  }
}
