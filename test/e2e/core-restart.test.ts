/**
 * A bulk file still being processed when the browser quits is finished after the browser starts
 * again on the same profile: the job list is persisted, the worker resumes polling on start-up,
 * and the results can be downloaded.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RESULT_COLUMNS } from '@verimark/contract';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeNet, startFakeNet } from '../../server/testing/fake-net';
import { type RunningService, startService } from '../../server/testing/service';
import { click, waitForText } from './testing/dom';
import { listDownloads, waitForNextDownload } from './testing/downloads';
import { shownNotificationIds, storedBulkJobs, waitForBadge } from './testing/extension-state';
import { showTab, uploadInPopup } from './testing/popup';
import { waitFor } from './testing/process-guard';
import { type ExtensionSession, launchChromium, launchFirefox } from './testing/session';

// Each slow.test recipient takes this long: the file is still processing when the browser quits.
const SLOW_MS = 8_000;
const CSV = 'Name,Email\nAlice,alice@slow.test\nBob,bob@deliverable.test\nNobody,nobody@rejecting.test\n';
let net: FakeNet;
let service: RunningService;
let temp: string;
let session: ExtensionSession | undefined;

beforeAll(async () => {
  temp = await mkdtemp(path.join(tmpdir(), 'verimark-restart-'));
  net = await startFakeNet({ slowMs: SLOW_MS });
  service = await startService({ fakeNet: net, env: { SMTP_TIMEOUT_MS: String(SLOW_MS * 4) } });
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});
afterAll(async () => {
  await service?.stop();
  await net?.stop();
  await rm(temp, { recursive: true, force: true });
});

describe.each([
  ['chromium', (profile: string) => launchChromium({ userDataDir: profile })],
  ['firefox', (profile: string) => launchFirefox({ profileDir: profile })],
] as const)('%s', (name, launch) => {
  it('finishes a pending bulk file after a browser restart on the same profile', async () => {
    const profile = path.join(temp, `profile-${name}`);
    const csv = path.join(temp, `restart-${name}.csv`);
    await writeFile(csv, CSV);

    session = await launch(profile);
    await session.configure(service.baseUrl, service.apiKey);
    await uploadInPopup(session, csv);
    await waitForBadge(session, '1', 30_000);
    const statusAtQuit = await fetch(`${service.baseUrl}/verify/bulk/files?page=1&pageSize=10`, {
      headers: { 'x-api-key': service.apiKey },
    }).then((r) => r.json() as Promise<{ data: { files: { file_name: string; state: string }[] } }>);
    await session.close();
    session = undefined;
    // The service had the file and had not finished it when the browser quit.
    const atQuit = statusAtQuit.data.files.find((f) => f.file_name === `restart-${name}.csv`);
    expect(atQuit?.state).toMatch(/^(pending|processing)$/);

    session = await launch(profile);
    // The popup stays closed until the background, on its own, has seen the file complete.
    const restarted = session;
    await waitFor(
      async () =>
        (await storedBulkJobs(restarted)).some(
          (job) => job.fileName === `restart-${name}.csv` && job.phase === 'completed',
        ),
      100_000,
      'the persisted job to complete',
    );
    await waitForBadge(session, '', 15_000);
    if (name === 'chromium') {
      // The background said so on the desktop: one notification, named after the job.
      expect(await shownNotificationIds(session)).toEqual([expect.stringMatching(/^bulk-bulk-/)]);
    }
    const page = await session.openExtensionPage('popup.html');
    await showTab(page, /files/i);
    await waitForText(page, new RegExp(`restart-${name}\\.csv`), 30_000);
    const before = listDownloads(session);
    await click(page, `Download results of restart-${name}.csv`);
    // The name the background asks for, not the service's Content-Disposition `-results.csv`.
    const { name: saved, text } = await waitForNextDownload(session, before);
    expect(saved).toBe(`restart-${name}-verified.csv`);
    const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields).toEqual(['Name', 'Email', ...RESULT_COLUMNS]);
    const statuses = Object.fromEntries(parsed.data.map((row) => [row.Name, row.verification_status]));
    expect(statuses).toEqual({ Alice: 'risky', Bob: 'deliverable', Nobody: 'undeliverable' });
  });
});
