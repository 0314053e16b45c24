/**
 * The popup opened in a tab (extension pages behave the same there), driven through its labelled
 * controls: "Email address" + "Verify" (docs/design.md §5).
 */
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { click, control, fill } from './dom';
import { retryTransient, waitFor } from './process-guard';
import type { ExtensionSession } from './session';

interface ShownVerdict {
  status: string;
  email: string;
  /** The card's whole text (reason, checks, where the verdict came from). */
  text: string;
}

async function openPopupTab(session: ExtensionSession): Promise<Page> {
  const page = await session.openExtensionPage('popup.html');
  await control(page, 'Email address');
  return page;
}

/** The verdict card, or an error when the popup shows its error banner first. */
async function shownOutcome(page: Page, ms: number): Promise<ShownVerdict> {
  const seen = await waitFor(
    () =>
      page.evaluate(() => {
        const alert = (document.querySelector('[role="alert"]')?.textContent ?? '')
          .replace(/\s+/g, ' ')
          .trim();
        if (alert) return { error: alert };
        const card = document.querySelector<HTMLElement>('[data-testid="verdict"]');
        if (!card?.dataset.status) return undefined;
        return {
          status: card.dataset.status,
          email: (card.querySelector('.verdict-email')?.textContent ?? '').trim(),
          text: (card.textContent ?? '').replace(/\s+/g, ' ').trim(),
        };
      }),
    ms,
    'a verdict in the popup',
  );
  if ('error' in seen) throw new Error(`The popup shows an error: ${seen.error}`);
  return seen;
}

/** Types `email` into the popup, presses "Verify" and returns the verdict the popup shows. */
export async function verifyInPopup(
  session: ExtensionSession,
  email: string,
  ms = 60_000,
): Promise<ShownVerdict> {
  const page = await openPopupTab(session);
  try {
    await fill(page, 'Email address', email);
    await click(page, 'Verify');
    return await shownOutcome(page, ms);
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Shows the popup tab whose name matches (e.g. /upload/i, /files/i). */
export async function showTab(page: Page, name: RegExp): Promise<void> {
  await waitFor(
    () =>
      page.evaluate((source) => {
        const want = new RegExp(source, 'i');
        const tab = Array.from(document.querySelectorAll<HTMLElement>('[role="tab"]')).find((t) =>
          want.test(t.textContent ?? ''),
        );
        tab?.click();
        return tab !== undefined;
      }, name.source),
    15_000,
    `a popup tab ${name}`,
  );
}

/** Uploads a CSV through the popup's "CSV file" input and "Upload" button; resolves once the job is listed. */
export async function uploadInPopup(session: ExtensionSession, file: string): Promise<void> {
  const page = await openPopupTab(session);
  try {
    await showTab(page, /upload/i);
    const input = await waitFor(
      () => page.$('input[type="file"]').then((h) => h ?? undefined),
      15_000,
      'the CSV file input',
    );
    await retryTransient(() => input.uploadFile(file), `choosing ${path.basename(file)}`);
    await click(page, 'Upload');
    const name = path.basename(file);
    await waitFor(
      () =>
        page.evaluate(
          (n) => (document.querySelector('[data-testid="jobs"]')?.textContent ?? '').includes(n),
          name,
        ),
      30_000,
      `${name} in the job list`,
    );
  } finally {
    await page.close().catch(() => undefined);
  }
}
