import { PATHS } from '@verimark/contract';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { addJob, getJobs } from '@/lib/storage/jobs';
import { getCached } from '@/lib/storage/verdict-cache';
import { POLL_ALARM } from './core/poll-alarm';
import { onAlarm, resume, startBackground } from './main';
import { bulkJob, countRequests, until, useFakeService } from './testing/setup';
import { singlePollTiming } from './verify/verify';

const env = useFakeService(() => ({ bulkStatuses: [{ status: 'processing', download_url: '' }] }));
beforeAll(() => {
  singlePollTiming.initialDelayMs = 20;
});

describe('resume after a worker stop or browser restart', () => {
  it('re-arms polling from the persisted job list and finishes the work', async () => {
    const now = Date.now();
    env.service.state.tasks.set('task-9', { email: 'zoe@example.com', polls: 0 });
    await addJob({
      kind: 'single',
      id: 'single-task-9',
      taskId: 'task-9',
      email: 'zoe@example.com',
      mode: 'catch_all',
      createdAt: now,
      deadline: now + 60_000,
    });
    await addJob(bulkJob({ id: 'b-1', fileId: 'file-7', fileName: 'big.csv', blobKey: 'k' }));

    fakeBrowser.alarms.onAlarm.addListener(onAlarm);
    await resume();
    expect(countRequests(env.server.requests, PATHS.bulkStatus)).toBe(1);
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toBeDefined();
    await until(async () => (await getCached('zoe@example.com')) !== null);
    expect(countRequests(env.server.requests, PATHS.single)).toBe(0);

    // The alarm fires later: the bulk file completes and polling stops.
    env.service.state.bulkStatuses = [{ status: 'completed', download_url: `${env.server.url}/d.csv` }];
    await fakeBrowser.alarms.onAlarm.trigger({ name: POLL_ALARM, scheduledTime: Date.now() });
    await until(async () => {
      const jobs = await getJobs();
      return jobs.length === 1 && jobs.every((job) => job.kind === 'bulk' && job.phase === 'completed');
    });
    await until(async () => (await fakeBrowser.alarms.get(POLL_ALARM)) === undefined);
  });
});

describe('startBackground', () => {
  it('arms polling on start, and again after an install, an update or a browser start', async () => {
    // What the fake browser does not implement (menus, site registration) is not under test here.
    for (const event of [
      fakeBrowser.contextMenus.onClicked,
      fakeBrowser.permissions.onAdded,
      fakeBrowser.permissions.onRemoved,
      fakeBrowser.commands.onCommand,
    ]) {
      vi.spyOn(event, 'addListener').mockImplementation(() => undefined);
    }
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const openOptions = vi
      .spyOn(fakeBrowser.runtime, 'openOptionsPage')
      .mockImplementation(async () => undefined);
    const clicks = vi.spyOn(fakeBrowser.notifications.onClicked, 'addListener');
    await addJob(bulkJob({ id: 'b-2', fileId: 'file-2', phase: 'processing', blobKey: 'k' }));
    const armed = async () => (await fakeBrowser.alarms.get(POLL_ALARM)) !== undefined;
    startBackground();
    // Keyboard commands and notification clicks are listened to.
    expect(fakeBrowser.commands.onCommand.addListener).toHaveBeenCalledOnce();
    expect(clicks).toHaveBeenCalledOnce();
    await until(armed);
    for (const event of ['update', 'install'] as const) {
      await fakeBrowser.alarms.clearAll(); // the browser dropped them
      await fakeBrowser.runtime.onInstalled.trigger({ reason: event });
      await until(armed);
    }
    expect(openOptions).toHaveBeenCalledTimes(1);
    await fakeBrowser.alarms.clearAll();
    await fakeBrowser.runtime.onStartup.trigger();
    await until(armed);
    quiet.mockRestore();
    vi.restoreAllMocks();
  });
});
