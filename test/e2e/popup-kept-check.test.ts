/**
 * A single check asked while the service is down is kept and sent when it is back — and when the
 * service then refuses it (here 402: the key has no credits), the popup says so plainly, also
 * after it was closed and opened again, with Retry and Dismiss. Real Chromium, real service over
 * HTTP, stopped and started again on the same port and data.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { lastLine, type RunningService, startService } from '../../server/testing/service';
import { click, fill } from './testing/dom';
import { useExtension } from './testing/extension-suite';
import { openPopup, screenshotBothThemes, waitForSelectorText } from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium, configure: false });
const extra: RunningService[] = [];

afterAll(async () => {
  for (const s of extra.reverse()) await s.stop();
});

const REFUSED_402 =
  /^Sent when the service was back, but not verified \(no credit spent\)\. Payment required: the subscription has expired or there are not enough credits\. Add credits to this key, then choose Retry below\.$/;

/** The sentence of `email`'s row in the kept list, once it says the check was refused. */
function refusedRow(page: Page, email: string, ms = 60_000): Promise<string> {
  return waitFor(
    () =>
      page.evaluate((want) => {
        const row = [
          ...document.querySelectorAll('[data-testid=pending-checks] li[data-status=refused]'),
        ].find((li) => li.querySelector('.recent-email')?.textContent === want);
        return row
          ? (row.querySelector('.refused-text')?.textContent ?? '').replace(/\s+/g, ' ').trim()
          : undefined;
      }, email),
    ms,
    `${email} to be listed as refused`,
  );
}

describe('checks kept offline, refused when sent (Chromium, real service)', () => {
  it('says why they were not verified, after a reopen too; Dismiss forgets one, Retry with credits verifies the other', {
    timeout: 150_000,
  }, async () => {
    // A valid key with no credits, saved while the service answers.
    const broke = lastLine(await e2e.service.admin(['create-key', '--credits', '0', '--label', 'broke']));
    await e2e.session.configure(e2e.service.baseUrl, broke);
    const port = new URL(e2e.service.baseUrl).port;
    await e2e.service.kill();

    let page = await openPopup(e2e.session);
    for (const email of ['other@deliverable.test', 'info@deliverable.test']) {
      await fill(page, 'Email address', email);
      await click(page, 'Verify');
      await waitForSelectorText(
        page,
        '[data-testid=verify-queued]',
        /^Not sent yet: the service cannot be reached\./,
      );
    }
    await waitForSelectorText(
      page,
      '[data-testid=pending-checks]',
      /info@deliverable\.test.*Will be sent when/,
    );

    // Back, same data: the background sends the kept checks, the service answers 402.
    const back = await startService({ fakeNet: e2e.net, dataDir: e2e.service.dataDir, env: { PORT: port } });
    extra.push(back);
    expect(await refusedRow(page, 'info@deliverable.test')).toMatch(REFUSED_402);
    // Said where its verdict would have shown, since the popup was open.
    await waitForSelectorText(
      page,
      '[data-testid=verify-refused]',
      /^info@deliverable\.test was sent when the service was back, but not verified \(no credit spent\)\. Payment required: /,
    );
    expect(await page.$('[data-testid=verify-queued]')).toBeNull();
    expect(await page.$('[data-testid=verdict]')).toBeNull();
    await screenshotBothThemes(page, 'kept-check-refused-now');
    await page.close();

    // Closed and opened again: still said, from the stored state.
    page = await openPopup(e2e.session);
    expect(await refusedRow(page, 'info@deliverable.test', 10_000)).toMatch(REFUSED_402);
    expect(await refusedRow(page, 'other@deliverable.test', 10_000)).toMatch(REFUSED_402);
    await screenshotBothThemes(page, 'kept-check-refused');

    // Dismiss: forgotten, also after a reopen.
    await click(page, 'Dismiss other@deliverable.test');
    await waitFor(
      () =>
        page.evaluate(
          () =>
            !document.querySelector('[data-testid=pending-checks]')?.textContent?.includes('other@') ||
            undefined,
        ),
      10_000,
      'the dismissed check to leave the list',
    );

    // Credits added; Retry sends it at once and its verdict shows.
    await back.admin(['add-credits', broke, '--credits', '5']);
    await click(page, 'Retry info@deliverable.test');
    await waitForSelectorText(page, '[data-testid=verdict]', /Deliverable\s*info@deliverable\.test/, 60_000);
    expect(await page.$('[data-testid=verify-refused]')).toBeNull();
    await page.close();

    page = await openPopup(e2e.session);
    await waitForSelectorText(page, '[data-testid=recent-lookups]', /info@deliverable\.test/, 10_000);
    expect(await page.$('[data-testid=pending-checks]')).toBeNull();
    await page.close();
  });
});
