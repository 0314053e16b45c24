/** Smoke test of the content script in Firefox: runtime registration, marks, shadow roots, frames, hostile text. */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeNet, startFakeNet } from '../../server/test-support/fake-net';
import { type RunningService, startService } from '../../server/test-support/service';
import {
  enableSites,
  type FixtureServer,
  finalStatuses,
  startFixtureServer,
} from './fixtures/content/harness';
import { type ExtensionSession, launchFirefox } from './harness';

let net: FakeNet;
let service: RunningService;
let fixtures: FixtureServer;
let session: ExtensionSession;
let page: Page;

beforeAll(async () => {
  net = await startFakeNet();
  service = await startService({ fakeNet: net, env: { RATE_LIMIT_PER_MIN: '100000' } });
  fixtures = await startFixtureServer();
  session = await launchFirefox();
  await enableSites(session, {
    serviceUrl: service.baseUrl,
    apiKey: service.apiKey,
    enabledSites: ['127.0.0.1'],
  });
  page = await session.browser.newPage();
});

afterAll(async () => {
  await session?.close();
  await fixtures?.stop();
  await service?.stop();
  await net?.stop();
});

describe('content script in Firefox', () => {
  it('marks links, fields, shadow-root content and compose chips', async () => {
    await page.bringToFront();
    await page.goto(`${fixtures.origin}/mixed.html`, { waitUntil: 'load' });
    expect(
      await finalStatuses(page, [
        'multi',
        'encoded',
        'bad-syntax',
        'hostile-input',
        'shadow-link',
        'late-link',
      ]),
    ).toEqual({
      multi: 'undeliverable',
      encoded: 'deliverable',
      'bad-syntax': 'invalid',
      'hostile-input': 'invalid',
      'shadow-link': 'deliverable',
      'late-link': 'undeliverable',
    });
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned ?? null)).toBeNull();

    await page.goto(`${fixtures.origin}/compose.html`, { waitUntil: 'load' });
    expect(await finalStatuses(page, ['chip-bob', 'chip-nobody', 'chip-later'])).toEqual({
      'chip-bob': 'deliverable',
      'chip-nobody': 'undeliverable',
      'chip-later': 'deliverable',
    });
  });
});
