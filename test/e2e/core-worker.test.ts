/**
 * Chromium stops an idle extension service worker at any moment. A single verification whose
 * polling is cut off that way still completes: the task is persisted, the poll alarm wakes the
 * worker, polling resumes, the verdict lands in the cache, and the address is charged once.
 */
import { expect, it } from 'vitest';
import { unpackedExtensionId } from './testing/chromium';
import { click, fill, waitForText } from './testing/dom';
import { badgeText, waitForBadge, workerRunning } from './testing/extension-state';
import { useExtension } from './testing/extension-suite';
import { waitFor } from './testing/process-guard';
import { extensionDir, launchChromium } from './testing/session';

// The slow domain answers RCPT TO after this long: polling is under way when the worker stops.
const SLOW_MS = 6_000;
const e2e = useExtension({
  launch: launchChromium,
  service: { fakeNet: { slowMs: SLOW_MS }, env: { SMTP_TIMEOUT_MS: String(SLOW_MS * 4) } },
});

async function credits(): Promise<number> {
  const line = (await e2e.service.admin(['list-keys'])).split('\n').find((l) => l.includes('label="test"'));
  return Number(/credits=(\d+)/.exec(line ?? '')?.[1]);
}

it('completes a single verification after the service worker is stopped mid-polling', async () => {
  const before = await credits();
  const popup = await e2e.session.openExtensionPage('popup.html');
  await fill(popup, 'Email address', 'alice@slow.test');
  await click(popup, 'Verify');
  // The task is persisted and followed: the badge counts it, and the service is probing.
  await waitForBadge(e2e.session, '1', 15_000);
  await waitFor(() => e2e.net.connectionsFor('slow.test').length > 0, 15_000, 'the SMTP probe');
  await popup.close();

  await e2e.session.stopServiceWorker?.();
  expect(workerRunning(e2e.session)).toBe(false);

  // Nothing but the poll alarm wakes the worker now; it resumes polling and finishes the task.
  await waitForBadge(e2e.session, '', 100_000);
  const check = await e2e.session.openExtensionPage('popup.html');
  const recent = await waitForText(check, /alice@slow\.test/, 15_000);
  // slow.test accepts every recipient: in the default catch_all mode that is risky (catch-all).
  expect(recent).toMatch(/alice@slow\.test\s*Risky/i);
  await check.close();
  expect(before - (await credits())).toBe(1);
  expect(await badgeText(e2e.session)).toBe('');
});

it('finds the extension under the id Chromium derives from its path', () => {
  // The harness falls back on this id when the worker does not start with the browser.
  expect(e2e.session.extensionBaseUrl).toBe(
    `chrome-extension://${unpackedExtensionId(extensionDir('chromium'))}/`,
  );
});
