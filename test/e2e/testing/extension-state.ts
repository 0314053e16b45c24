/**
 * Reading the extension's state the way no user action would change it: the toolbar badge
 * (number of running jobs) and the persisted job list. In Chromium this runs inside the service
 * worker (so no page wakes it); in Firefox inside an extension page that does nothing itself
 * (the options page: it sends no messages but `getSettings`).
 */
import type { Page, Target, WebWorker } from 'puppeteer-core';
import { waitFor } from './process-guard';
import type { ExtensionSession } from './session';

function isWorker(session: ExtensionSession) {
  return (t: Target) => t.type() === 'service_worker' && t.url().startsWith(session.extensionBaseUrl);
}

export function workerRunning(session: ExtensionSession): boolean {
  return session.browser.targets().some(isWorker(session));
}

/** The extension's service worker (Chromium), waiting for the browser to start it. */
async function serviceWorker(session: ExtensionSession, ms = 90_000): Promise<WebWorker> {
  const target = await session.browser.waitForTarget(isWorker(session), { timeout: ms });
  const worker = await target.worker();
  if (!worker) throw new Error('The service worker target has no worker');
  return worker;
}

const probePages = new WeakMap<ExtensionSession, Page>();

/** Where to run extension-API reads: the service worker, or (Firefox) a quiet extension page. */
async function context(session: ExtensionSession): Promise<WebWorker | Page> {
  if (session.browserName === 'chromium') return serviceWorker(session);
  let page = probePages.get(session);
  if (!page || page.isClosed()) {
    page = await session.openExtensionPage('options.html');
    probePages.set(session, page);
  }
  return page;
}

interface ExtensionApi {
  action?: { getBadgeText(d: object): Promise<string> };
  browserAction?: { getBadgeText(d: object): Promise<string> };
}

/** The badge text (`action` in MV3, `browserAction` in Firefox MV2). */
export async function badgeText(session: ExtensionSession): Promise<string> {
  return (await context(session)).evaluate(() => {
    const g = globalThis as unknown as { browser?: ExtensionApi; chrome?: ExtensionApi };
    const api = (g.browser ?? g.chrome) as ExtensionApi;
    return (api.action ?? api.browserAction)?.getBadgeText({}) ?? Promise.resolve('');
  });
}

export function waitForBadge(session: ExtensionSession, want: string, ms = 90_000): Promise<true> {
  return waitFor(async () => (await badgeText(session)) === want, ms, `the badge to read "${want}"`);
}

interface StoredBulkJob {
  fileName: string;
  phase: string;
}

/**
 * The bulk jobs in the background's persisted job list (lib/storage/jobs.ts: IndexedDB
 * database `verimark-jobs`, store `jobs`, key `jobs`), read without asking the background.
 */
export async function storedBulkJobs(session: ExtensionSession): Promise<StoredBulkJob[]> {
  return (await context(session)).evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('verimark-jobs');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const jobs = await new Promise<unknown>((resolve, reject) => {
        const request = db.transaction('jobs', 'readonly').objectStore('jobs').get('jobs');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      return ((jobs ?? []) as { kind: string; fileName: string; phase: string }[])
        .filter((job) => job.kind === 'bulk')
        .map((job) => ({ fileName: job.fileName, phase: job.phase }));
    } finally {
      db.close();
    }
  });
}

/**
 * The ids of the extension's notifications still shown (Chromium, read in the service worker;
 * headless Firefox closes a notification at once, so it has none to list).
 */
export async function shownNotificationIds(session: ExtensionSession): Promise<string[]> {
  const worker = await serviceWorker(session);
  return worker.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: { notifications: { getAll(): Promise<object> } } })
      .chrome;
    return Object.keys(await api.notifications.getAll());
  });
}
