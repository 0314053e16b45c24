/**
 * Every error state of the popup against the real service: a refused key (401) with a way to
 * the options page, no credits (402), rate limited (429) while it retries, and offline (the
 * service stopped) while queued work waits and then finishes once the service is back.
 */
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { lastLine, type RunningService, startService } from '../../server/testing/service';
import { click, fill } from './testing/dom';
import { useExtension } from './testing/extension-suite';
import {
  chooseCsv,
  FIXTURES,
  openPopup,
  screenshotBothThemes,
  selectTab,
  textOf,
  waitForSelectorText,
} from './testing/popup-page';
import { waitFor } from './testing/process-guard';
import { exhaustRateLimit } from './testing/service-helpers';
import { launchChromium } from './testing/session';

// Slow mailboxes keep a file processing long enough to stop the service under it.
const e2e = useExtension({
  launch: launchChromium,
  configure: false,
  service: { fakeNet: { slowMs: 1500 }, env: { SMTP_TIMEOUT_MS: '4000' } },
});
const extra: RunningService[] = [];

afterAll(async () => {
  for (const s of extra.reverse()) await s.stop();
});

/** The banner's error kind and text, once one shows. */
function banner(page: Page, kind: string, ms = 30_000): Promise<string> {
  return waitFor(
    () =>
      page.evaluate((want) => {
        const el = document.querySelector(`[role=alert][data-error-kind=${want}]`);
        return el ? (el.textContent ?? '').replace(/\s+/g, ' ') : undefined;
      }, kind),
    ms,
    `a ${kind} banner`,
  );
}

async function verifyIn(page: Page, email: string): Promise<void> {
  await fill(page, 'Email address', email);
  await click(page, 'Verify');
}

describe('popup error states (Chromium, real service)', () => {
  it('401: says the key was refused and opens the options page', async () => {
    await e2e.session.configure(e2e.service.baseUrl, 'vm_this_key_does_not_exist');
    const page = await openPopup(e2e.session);
    await verifyIn(page, 'alice@deliverable.test');
    expect(await banner(page, 'invalid_key')).toContain('The service refused the API key.');
    await screenshotBothThemes(page, 'error-invalid-key');
    const opened = e2e.session.browser.waitForTarget((t) => t.url().endsWith('/options.html'), {
      timeout: 15_000,
    });
    await click(page, 'Open settings');
    expect((await opened).url()).toBe(`${e2e.session.extensionBaseUrl}options.html`);
    await page.close();
  });

  it('402: says plainly that payment is required', async () => {
    const broke = lastLine(await e2e.service.admin(['create-key', '--credits', '0', '--label', 'broke']));
    await e2e.session.configure(e2e.service.baseUrl, broke);
    const page = await openPopup(e2e.session);
    await verifyIn(page, 'alice@deliverable.test');
    expect(await banner(page, 'payment_required')).toMatch(/Payment required/);
    await screenshotBothThemes(page, 'error-payment-required');

    // The header tells the balance, and says what an empty one means.
    expect(await textOf(page, '[data-testid=balance]')).toBe('0 credits');
    expect(await textOf(page, '[data-testid=low-balance]')).toMatch(/^No credits left/);

    // An upload the balance cannot pay is refused before "Upload", with the numbers; the file stays chosen.
    await selectTab(page, 'CSV upload');
    await chooseCsv(page, path.join(FIXTURES, 'contacts.csv'));
    await waitForSelectorText(page, '[data-testid=credits]', /takes: 7 .*, you have 0\./);
    expect(await textOf(page, '[data-testid=credits-short]')).toMatch(
      /^Not enough credits: this upload takes 7 and the key has 0\..*the file stays chosen\.$/,
    );
    expect(await page.$eval('button[type=submit].wide', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    expect(await page.$eval('#csv-file', (i) => (i as HTMLInputElement).files?.[0]?.name)).toBe(
      'contacts.csv',
    );
    await screenshotBothThemes(page, 'error-upload-payment-required');
    await page.close();
  });

  it('429: shows that it is retrying, then gets the verdict', { timeout: 150_000 }, async () => {
    const limited = await startService({ fakeNet: e2e.net, env: { RATE_LIMIT_PER_MIN: '5' } });
    extra.push(limited);
    await e2e.session.configure(limited.baseUrl, limited.apiKey);
    const page = await openPopup(e2e.session);
    await exhaustRateLimit(limited, limited.apiKey);
    await verifyIn(page, 'bob@deliverable.test');
    expect(await banner(page, 'rate_limited')).toMatch(/rate limiting requests\. Retrying in \d+ s/);
    await screenshotBothThemes(page, 'error-rate-limited');
    await waitFor(
      () => page.evaluate(() => document.querySelector('[data-testid=verdict]')?.getAttribute('data-status')),
      100_000,
      'the verdict after the retry',
    );
    expect(await page.$('[role=alert][data-error-kind=rate_limited]')).toBeNull();
    await page.close();
  });

  it('offline: says so, queued work waits, and finishes when the service is back', {
    timeout: 150_000,
  }, async () => {
    await e2e.session.configure(e2e.service.baseUrl, e2e.service.apiKey);
    const page = await openPopup(e2e.session);
    await selectTab(page, 'CSV upload');
    const slow = Array.from({ length: 12 }, (_, i) => `Slow ${i},user${i}@slow.test`).join('\n');
    const file = path.join(e2e.service.dataDir, 'slow.csv');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, `Name,Email\n${slow}\n`);
    await chooseCsv(page, file);
    await waitForSelectorText(page, '[data-testid=credits]', /takes: 12 /);
    await click(page, 'Upload');
    await waitFor(
      () =>
        page.evaluate(() => {
          const phase = document.querySelector('[data-testid=jobs] li')?.getAttribute('data-phase');
          return phase === 'queued' || phase === 'processing' ? phase : undefined;
        }),
      30_000,
      'the file to be on the service',
    );

    const port = new URL(e2e.service.baseUrl).port;
    await e2e.service.kill();
    await selectTab(page, 'One address');
    await verifyIn(page, 'info@deliverable.test');
    expect(await banner(page, 'network')).toMatch(
      /Offline: the service cannot be reached\. Verimark keeps checking; queued work continues/,
    );
    // The check was not sent: the background keeps it, and the popup says so and lists it pending.
    expect(await textOf(page, '[data-testid=verify-queued]')).toMatch(
      /^Not sent yet: the service cannot be reached\. info@deliverable\.test will be sent when the service is back/,
    );
    await waitForSelectorText(
      page,
      '[data-testid=pending-checks]',
      /info@deliverable\.test.*Will be sent when the service is back/,
      10_000,
    );
    await selectTab(page, 'CSV upload');
    const phase = await page.evaluate(() =>
      document.querySelector('[data-testid=jobs] li')?.getAttribute('data-phase'),
    );
    expect(phase).not.toBe('failed');
    await screenshotBothThemes(page, 'error-offline');

    // Back on the same address and data: the file resumes and completes.
    const back = await startService({
      fakeNet: e2e.net,
      dataDir: e2e.service.dataDir,
      env: { PORT: port, SMTP_TIMEOUT_MS: '4000' },
    });
    extra.push(back);
    // The popup asks again by itself (backoff): the banner goes, and the background sends the kept check.
    await waitFor(
      () =>
        page.evaluate(
          () => document.querySelector('[role=alert][data-error-kind=network]') === null || undefined,
        ),
      60_000,
      'the offline banner to clear once the service answers',
    );
    await selectTab(page, 'One address');
    await waitForSelectorText(page, '[data-testid=verdict]', /Deliverable\s*info@deliverable\.test/, 60_000);
    expect(await page.$('[data-testid=verify-queued]')).toBeNull();
    await selectTab(page, 'CSV upload');
    await waitFor(
      () =>
        page.evaluate(
          () => document.querySelector('[data-testid=jobs] li')?.getAttribute('data-phase') === 'completed',
        ),
      120_000,
      'the queued file to complete after the outage',
    );
    await page.close();
  });
});
