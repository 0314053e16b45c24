/**
 * The extension core in both browsers: configured through the options page, "Test connection"
 * tells a good key from a bad one, and an address typed in the popup is verified by the
 * background against the real service (with a real DNS and SMTP server on loopback).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../server/testing/service';
import { statusText } from './testing/configure';
import { click, fill } from './testing/dom';
import { verifyInPopup } from './testing/popup';
import { type ExtensionSession, launchChromium, launchFirefox } from './testing/session';

describe.each([
  ['chromium', launchChromium],
  ['firefox', launchFirefox],
] as const)('%s', (_name, launch) => {
  let service: RunningService;
  let session: ExtensionSession;

  beforeAll(async () => {
    service = await startService();
    session = await launch();
  });
  afterAll(async () => {
    await session?.close();
    await service?.stop();
  });

  async function testConnection(apiKey?: string): Promise<string> {
    const page: Page = await session.openExtensionPage('options.html');
    try {
      if (apiKey !== undefined) await fill(page, 'API key', apiKey);
      await click(page, 'Test connection');
      return await statusText(page);
    } finally {
      await page.close();
    }
  }

  it('is configured through the options page and "Test connection" reports OK', async () => {
    await session.configure(service.baseUrl, service.apiKey);
    expect(await testConnection()).toMatch(/\bOK\b/);
  });

  it('"Test connection" reports an unknown key as invalid', async () => {
    expect(await testConnection('vm_not-a-key')).toMatch(/invalid key/i);
  });

  it('verifies an address from the popup through the background', async () => {
    const verdict = await verifyInPopup(session, 'alice@deliverable.test');
    expect(verdict).toMatchObject({ status: 'deliverable', email: 'alice@deliverable.test' });
    const rejected = await verifyInPopup(session, 'nobody@rejecting.test');
    expect(rejected.status).toBe('undeliverable');
  });
});
