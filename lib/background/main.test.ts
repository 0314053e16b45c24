import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { PATHS } from '../api/contract';
import { startScriptedServer } from '../api/testing/scripted-server';
import { getCached } from './cache';
import { addJob, getJobs } from './jobs';
import { onAlarm, resume } from './main';
import { POLL_ALARM } from './scheduler';
import { configure, countRequests, fakeService, resetBackground, until } from './testing/setup';
import { singlePollTiming } from './verify';

let server: Awaited<ReturnType<typeof startScriptedServer>>;
let service: ReturnType<typeof fakeService>;

beforeAll(async () => {
  server = await startScriptedServer(() => ({ status: 500 }));
  singlePollTiming.initialDelayMs = 20;
});
afterAll(() => server.close());
beforeEach(async () => {
  await resetBackground();
  await configure(server.url);
  service = fakeService({ bulkStatuses: [{ status: 'processing', download_url: '' }] });
  server.setScript(service.script);
});

describe('resume after a worker stop or browser restart', () => {
  it('re-arms polling from the persisted job list and finishes the work', async () => {
    const now = Date.now();
    service.state.tasks.set('task-9', { email: 'zoe@example.com', polls: 0 });
    await addJob({
      kind: 'single',
      id: 'single-task-9',
      taskId: 'task-9',
      email: 'zoe@example.com',
      mode: 'catch_all',
      createdAt: now,
      deadline: now + 60_000,
    });
    await addJob({
      kind: 'bulk',
      id: 'b-1',
      fileId: 'file-7',
      fileName: 'big.csv',
      phase: 'queued',
      progress: 0,
      error: null,
      createdAt: now,
      blobKey: 'k',
      emailColumn: 'Email',
      mode: 'catch_all',
      notified: false,
      updatedAt: now,
    });

    fakeBrowser.alarms.onAlarm.addListener(onAlarm);
    await resume();
    expect(countRequests(server.requests, PATHS.bulkStatus)).toBe(1);
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toBeDefined();
    await until(async () => (await getCached('zoe@example.com')) !== null);
    expect(countRequests(server.requests, PATHS.single)).toBe(0);

    // The alarm fires later: the bulk file completes and polling stops.
    service.state.bulkStatuses = [{ status: 'completed', download_url: `${server.url}/d.csv` }];
    await fakeBrowser.alarms.onAlarm.trigger({ name: POLL_ALARM, scheduledTime: Date.now() });
    await until(async () => {
      const jobs = await getJobs();
      return jobs.length === 1 && jobs.every((job) => job.kind === 'bulk' && job.phase === 'completed');
    });
    await until(async () => (await fakeBrowser.alarms.get(POLL_ALARM)) === undefined);
  });
});
