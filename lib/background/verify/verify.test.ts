import { PATHS } from '@verimark/contract';
import { ADDRESS_CASES } from '@verimark/contract/testing/address-cases';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ApiError } from '@/lib/api/errors';
import { configure, countRequests, until, useFakeService } from '@/lib/background/testing/setup';
import { addJob, getJobs } from '@/lib/storage/jobs';
import { getRecent } from '@/lib/storage/verdict-cache';
import { lookupCached, resumeSingleJobs, singlePollTiming, verifyEmail } from './verify';

const env = useFakeService();
beforeAll(() => {
  singlePollTiming.initialDelayMs = 20;
  singlePollTiming.maxDelayMs = 100;
});

describe('verifyEmail', () => {
  it('decides bad syntax locally as invalid, without a call', async () => {
    const view = await verifyEmail({ email: 'not an address' });
    expect([view.status, view.reason]).toEqual(['invalid', 'invalid_syntax']);
    // The same verdict the popup shows for it (lib/shared/local-verdict.ts): the syntax check failed.
    expect(view.checks).toEqual({ syntax: false });
    expect(env.server.requests).toHaveLength(0);
  });

  it('queues, polls to completion, caches, and serves the next ask from the cache', async () => {
    const first = await verifyEmail({ email: ' Ann@Example.COM ' });
    expect(first).toMatchObject({
      email: 'Ann@example.com',
      status: 'deliverable',
      reason: 'accepted_email',
      cached: false,
    });
    expect(env.service.state.tasks.get('task-1')?.email).toBe('Ann@example.com');
    expect(countRequests(env.server.requests, PATHS.singleStatus)).toBe(2);

    const again = await verifyEmail({ email: 'Ann@example.com' });
    expect(again).toMatchObject({ status: 'deliverable', cached: true });
    expect(countRequests(env.server.requests, PATHS.single)).toBe(1);
    expect((await getRecent(10)).map((v) => v.email)).toEqual(['Ann@example.com']);
    expect(await getJobs()).toEqual([]);
  });

  it('asks the service once for the same address asked several times at once', async () => {
    const views = await Promise.all([
      verifyEmail({ email: 'bob@example.com' }),
      verifyEmail({ email: 'bob@EXAMPLE.com' }),
      verifyEmail({ email: ' bob@example.com' }),
    ]);
    expect(views.map((v) => v.status)).toEqual(['deliverable', 'deliverable', 'deliverable']);
    expect(countRequests(env.server.requests, PATHS.single)).toBe(1);
  });

  it('pays once even when the service echoes the address in another case', async () => {
    env.service.state.result = (email) => ({ email: email.toLowerCase(), status: 'valid' });
    await verifyEmail({ email: 'Mixed.Case@example.com' });
    const again = await verifyEmail({ email: 'Mixed.Case@example.com' });
    expect(again).toMatchObject({ email: 'Mixed.Case@example.com', status: 'deliverable', cached: true });
    expect(countRequests(env.server.requests, PATHS.single)).toBe(1);
  });

  it('asks again when forced, and per mode', async () => {
    await verifyEmail({ email: 'c@example.com' });
    await verifyEmail({ email: 'c@example.com', force: true });
    await verifyEmail({ email: 'c@example.com', mode: 'non_catch_all' });
    expect(countRequests(env.server.requests, PATHS.single)).toBe(3);
  });

  it('throws typed errors and caches nothing', async () => {
    env.service.state.override[PATHS.single] = {
      status: 402,
      body: { error: 402, message: 'Insufficient credits' },
    };
    const err = await verifyEmail({ email: 'd@example.com' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'payment_required', message: 'Insufficient credits' });
    expect((await lookupCached(['d@example.com']))['d@example.com']).toBeNull();
  });

  it('reports a missing configuration as not_configured', async () => {
    await configure('', '');
    const err = await verifyEmail({ email: 'e@example.com' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'not_configured' });
  });

  it('shows the running task on the badge while it is polled', async () => {
    env.service.state.pendingPolls = Number.POSITIVE_INFINITY;
    const running = verifyEmail({ email: 'f@example.com' });
    await until(() => (env.service.state.tasks.get('task-1')?.polls ?? 0) > 0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    env.service.state.pendingPolls = 0;
    await running;
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });
});

describe('after the worker was stopped', () => {
  const job = {
    kind: 'single' as const,
    id: 'single-task-1',
    taskId: 'task-1',
    email: 'g@example.com',
    mode: 'catch_all' as const,
    createdAt: Date.now(),
    deadline: Date.now() + 60_000,
  };

  it('resumes a persisted task and fills the cache without a new credit', async () => {
    env.service.state.tasks.set('task-1', { email: 'g@example.com', polls: 0 });
    await addJob(job);
    await resumeSingleJobs();
    await until(async () => (await getJobs()).length === 0);
    expect(await getJobs()).toEqual([]);
    expect((await lookupCached(['g@example.com']))['g@example.com']).toMatchObject({
      status: 'deliverable',
      cached: true,
    });
    expect(countRequests(env.server.requests, PATHS.single)).toBe(0);
  });

  it('joins a persisted task when the same address is asked again', async () => {
    env.service.state.tasks.set('task-1', { email: 'g@example.com', polls: 0 });
    await addJob(job);
    const view = await verifyEmail({ email: 'g@example.com' });
    expect(view.status).toBe('deliverable');
    expect(countRequests(env.server.requests, PATHS.single)).toBe(0);
  });
});

describe('a task past its deadline', () => {
  it('is asked about once more, then answered unknown without caching a guess', async () => {
    env.service.state.pendingPolls = Number.POSITIVE_INFINITY;
    env.service.state.tasks.set('task-1', { email: 'slow@example.com', polls: 0 });
    const now = Date.now();
    await addJob({
      kind: 'single',
      id: 'single-task-1',
      taskId: 'task-1',
      email: 'slow@example.com',
      mode: 'catch_all',
      createdAt: now - 1,
      deadline: now - 1,
    });
    const view = await verifyEmail({ email: 'slow@example.com' });
    expect([view.status, view.reason]).toEqual(['unknown', 'verification_timeout']);
    expect(env.service.state.tasks.get('task-1')?.polls).toBe(1);
    expect(await getJobs()).toEqual([]);
    expect((await lookupCached(['slow@example.com']))['slow@example.com']).toBeNull();
  });
});

describe('verifyEmail decides the shared address cases as the service does', () => {
  it.each(ADDRESS_CASES)('$input → $email', async ({ input, email }) => {
    const view = await verifyEmail({ email: input });
    if (email === null) {
      expect([view.email, view.status, view.reason]).toEqual([input.trim(), 'invalid', 'invalid_syntax']);
      expect(env.server.requests).toHaveLength(0);
    } else {
      expect([view.email, view.status]).toEqual([email, 'deliverable']);
      expect([...env.service.state.tasks.values()].map((task) => task.email)).toEqual([email]);
    }
  });
});

describe('lookupCached', () => {
  it('maps each asked string to its cached verdict, null, or invalid', async () => {
    await verifyEmail({ email: 'h@example.com' });
    const result = await lookupCached(['H@Example.com', 'new@example.com', 'broken@']);
    expect(result['H@Example.com']).toBeNull(); // the local part keeps its case: another address
    expect(result['new@example.com']).toBeNull();
    expect(result['broken@']?.status).toBe('invalid');
    expect((await lookupCached(['h@EXAMPLE.com']))['h@EXAMPLE.com']?.status).toBe('deliverable');
    expect(countRequests(env.server.requests, PATHS.single)).toBe(1);
  });
});

describe('a task whose polling fails', () => {
  const now = Date.now();
  const task = (deadline: number) => ({
    kind: 'single' as const,
    id: 'single-task-1',
    taskId: 'task-1',
    email: 'paid@example.com',
    mode: 'catch_all' as const,
    createdAt: now,
    deadline,
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: unknown) => err,
    );

  beforeEach(() => {
    env.service.state.tasks.set('task-1', { email: 'paid@example.com', polls: 0 });
  });

  it('is kept while the service is unreachable, past its deadline, and finishes without a new credit', async () => {
    await addJob(task(now - 1));
    env.service.state.override[PATHS.singleStatus] = {
      status: 429,
      body: { error: 429, message: 'Rate limit exceeded' },
      headers: { 'retry-after': '0' },
    };
    expect(await failure(verifyEmail({ email: 'paid@example.com' }))).toMatchObject({ kind: 'rate_limited' });
    expect(await getJobs()).toHaveLength(1);
    delete env.service.state.override[PATHS.singleStatus];
    env.service.state.pendingPolls = 0;
    expect((await verifyEmail({ email: 'paid@example.com' })).status).toBe('deliverable');
    expect(await getJobs()).toEqual([]);
    expect(countRequests(env.server.requests, PATHS.single)).toBe(0);
  });

  it('is kept after a 401 until its deadline (the key may be fixed), then dropped', async () => {
    env.service.state.override[PATHS.singleStatus] = {
      status: 401,
      body: { error: 401, message: 'Invalid API key' },
    };
    await addJob(task(now + 60_000));
    expect(await failure(verifyEmail({ email: 'paid@example.com' }))).toMatchObject({ kind: 'invalid_key' });
    expect(await getJobs()).toHaveLength(1);
    await addJob(task(now - 1));
    expect(await failure(verifyEmail({ email: 'paid@example.com' }))).toMatchObject({ kind: 'invalid_key' });
    expect(await getJobs()).toEqual([]);
  });

  it('is dropped when the service no longer knows it (404), and the caller is told', async () => {
    env.service.state.tasks.clear();
    await addJob(task(now + 60_000));
    expect(await failure(verifyEmail({ email: 'paid@example.com' }))).toMatchObject({ kind: 'not_found' });
    expect(await getJobs()).toEqual([]);
  });
});
