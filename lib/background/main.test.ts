import { PATHS } from '@verimark/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { removeAllListeners } from '@/lib/shared/messages';
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

describe('startBackground without the optional APIs (Firefox for Android: no menus, no commands)', () => {
  const OPTIONAL = ['contextMenus', 'commands', 'notifications'] as const;
  const kept: Partial<Record<(typeof OPTIONAL)[number], unknown>> = {};
  beforeEach(() => {
    removeAllListeners(); // the test above registered the handlers in this context already
    for (const name of OPTIONAL) {
      kept[name] = fakeBrowser[name];
      Reflect.set(fakeBrowser, name, undefined);
    }
  });
  afterEach(() => {
    for (const name of OPTIONAL) Reflect.set(fakeBrowser, name, kept[name]);
    vi.restoreAllMocks();
  });

  it('starts, and wires everything else: messages, tabs, alarms, site registration, resuming work', async () => {
    expect(fakeBrowser.contextMenus).toBeUndefined();
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const messages = vi.spyOn(fakeBrowser.runtime.onMessage, 'addListener');
    const tabs = vi.spyOn(fakeBrowser.tabs.onRemoved, 'addListener');
    const installed = vi.spyOn(fakeBrowser.runtime.onInstalled, 'addListener');
    const sites = vi
      .spyOn(fakeBrowser.permissions.onAdded, 'addListener')
      .mockImplementation(() => undefined);
    vi.spyOn(fakeBrowser.permissions.onRemoved, 'addListener').mockImplementation(() => undefined);
    vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockImplementation(async () => undefined);
    await addJob(bulkJob({ id: 'b-3', fileId: 'file-3', phase: 'processing', blobKey: 'k' }));

    expect(() => startBackground()).not.toThrow();
    expect(messages).toHaveBeenCalled();
    expect(tabs).toHaveBeenCalledOnce();
    expect(installed).toHaveBeenCalledOnce();
    expect(sites).toHaveBeenCalledOnce();
    // Persisted work resumes: the bulk file is polled and polling is armed.
    await until(() => countRequests(env.server.requests, PATHS.bulkStatus) === 1);
    await until(async () => (await fakeBrowser.alarms.get(POLL_ALARM)) !== undefined);
    // An install (which would create the context menu) still re-arms polling and opens the options.
    await fakeBrowser.alarms.clearAll();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await until(async () => (await fakeBrowser.alarms.get(POLL_ALARM)) !== undefined);
    expect(fakeBrowser.runtime.openOptionsPage).toHaveBeenCalledOnce();
    // Nothing but the missing APIs was skipped (the fake browser has no `scripting`, so the
    // registration itself warns; that it was wired shows in the permission listeners above).
    const skipped = quiet.mock.calls.map((call) => String(call[0]));
    expect(skipped).toEqual(expect.arrayContaining(['[verimark] context menu', '[verimark] commands']));
    const other = skipped.filter(
      (line) => !/context menu|commands|notifications|content script registration/.test(line),
    );
    expect(other).toEqual([]);
  });
});
