/**
 * Chromium stops an idle extension service worker at any moment. A single verification whose
 * polling is cut off that way still completes: the task is persisted, the poll alarm wakes the
 * worker, polling resumes, the verdict lands in the cache, and the address is charged once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeNet, startFakeNet } from '../../server/test-support/fake-net';
import { type RunningService, startService } from '../../server/test-support/service';
import { type ExtensionSession, extensionDir, launchChromium } from './harness';
import { unpackedExtensionId } from './support/chromium';
import { click, fill, waitForText } from './support/dom';
import { badgeText, waitForBadge, workerRunning } from './support/extension-state';
import { waitFor } from './support/process-guard';

// The slow domain answers RCPT TO after this long: polling is under way when the worker stops.
const SLOW_MS = 6_000;
let net: FakeNet;
let service: RunningService;
let session: ExtensionSession;

beforeAll(async () => {
  net = await startFakeNet({ slowMs: SLOW_MS });
  service = await startService({ fakeNet: net, env: { SMTP_TIMEOUT_MS: String(SLOW_MS * 4) } });
  session = await launchChromium();
  await session.configure(service.baseUrl, service.apiKey);
});
afterAll(async () => {
  await session?.close();
  await service?.stop();
  await net?.stop();
});

async function credits(): Promise<number> {
  const line = (await service.admin(['list-keys'])).split('\n').find((l) => l.includes('label="test"'));
  return Number(/credits=(\d+)/.exec(line ?? '')?.[1]);
}

it('completes a single verification after the service worker is stopped mid-polling', async () => {
  const before = await credits();
  const popup = await session.openExtensionPage('popup.html');
  await fill(popup, 'Email address', 'alice@slow.test');
  await click(popup, 'Verify');
  // The task is persisted and followed: the badge counts it, and the service is probing.
  await waitForBadge(session, '1', 15_000);
  await waitFor(() => net.connectionsFor('slow.test').length > 0, 15_000, 'the SMTP probe');
  await popup.close();

  await session.stopServiceWorker?.();
  expect(workerRunning(session)).toBe(false);

  // Nothing but the poll alarm wakes the worker now; it resumes polling and finishes the task.
  await waitForBadge(session, '', 100_000);
  const check = await session.openExtensionPage('popup.html');
  const recent = await waitForText(check, /alice@slow\.test/, 15_000);
  // slow.test accepts every recipient: in the default catch_all mode that is risky (catch-all).
  expect(recent).toMatch(/alice@slow\.test\s*Risky/i);
  await check.close();
  expect(before - (await credits())).toBe(1);
  expect(await badgeText(session)).toBe('');
});

it('finds the extension under the id Chromium derives from its path', () => {
  // The harness falls back on this id when the worker does not start with the browser.
  expect(session.extensionBaseUrl).toBe(
    `chrome-extension://${unpackedExtensionId(extensionDir('chromium'))}/`,
  );
});
