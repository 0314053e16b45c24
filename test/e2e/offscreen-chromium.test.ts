/**
 * Chrome's offscreen document lets go of a results subset on its own, in real Chromium: it makes
 * the blob URL of a subset, and once that URL is revoked it closes itself — the service worker
 * never calls `offscreen.closeDocument` here, as when it was stopped behind a Save dialog
 * (lib/offscreen/subset-page.ts; the one-minute lifetime of each URL is in its unit test).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebWorker } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useExtension } from './testing/extension-suite';
import { waitFor } from './testing/process-guard';
import { launchChromium } from './testing/session';

const e2e = useExtension({ launch: launchChromium, service: false, configure: false });
const RESULTS = 'email,verification_status\na@x.test,deliverable\nb@x.test,undeliverable\nc@x.test,risky\n';
let server: Server;
let resultsUrl = '';

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(RESULTS));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  resultsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/results.csv`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function worker(): Promise<WebWorker> {
  const target = await e2e.session.browser.waitForTarget(
    (t) => t.type() === 'service_worker' && t.url().startsWith(e2e.session.extensionBaseUrl),
    { timeout: 60_000 },
  );
  const w = await target.worker();
  if (!w) throw new Error('no service worker');
  return w;
}

type Chrome = {
  offscreen: { createDocument(p: object): Promise<void> };
  runtime: { sendMessage(m: object): Promise<unknown>; getContexts(f: object): Promise<unknown[]> };
};

describe('the offscreen document (Chromium)', () => {
  it('closes itself once the blob URL it made is let go, without the worker closing it', async () => {
    const sw = await worker();
    const made = (await sw.evaluate(async (url) => {
      const chrome = (globalThis as unknown as { chrome: Chrome }).chrome;
      await chrome.offscreen.createDocument({
        url: 'offscreen.html',
        reasons: ['BLOBS'],
        justification: 'test',
      });
      return chrome.runtime.sendMessage({ verimarkOffscreen: 'subset', url, subset: 'deliverable' });
    }, resultsUrl)) as { ok: boolean; url: string; rows: number };
    expect(made).toMatchObject({ ok: true, rows: 1 });
    expect(made.url).toMatch(/^blob:chrome-extension:\/\//);
    const count = () =>
      sw.evaluate(async () => {
        const chrome = (globalThis as unknown as { chrome: Chrome }).chrome;
        return (await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length;
      });
    expect(await count()).toBe(1);
    // The download is over: only the revoke message, never offscreen.closeDocument.
    await sw.evaluate(async (url) => {
      const chrome = (globalThis as unknown as { chrome: Chrome }).chrome;
      await chrome.runtime.sendMessage({ verimarkOffscreen: 'revoke', url });
    }, made.url);
    await waitFor(
      async () => (await count()) === 0 || undefined,
      15_000,
      'the offscreen document to close itself',
    );
  });
});
