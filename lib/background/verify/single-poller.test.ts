import type { SingleStatusData } from '@verimark/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { nextDelay, pollSingleTask } from './single-poller';

const pending: SingleStatusData = { task_id: 't', processing_status: 'pending' };
const completed: SingleStatusData = {
  task_id: 't',
  processing_status: 'completed',
  status: 'deliverable',
} as SingleStatusData;

/** A status source answering from a list (the last answer repeats), recording call times. */
function source(answers: (SingleStatusData | ApiError)[]) {
  const calls: number[] = [];
  return {
    calls,
    async singleStatus() {
      calls.push(Date.now());
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer instanceof ApiError) throw answer;
      return answer as SingleStatusData;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

describe('the backoff', () => {
  it('starts at 0.5 s and rises to a 15 s cap', () => {
    const delays = [500];
    for (let i = 0; i < 12; i++) delays.push(nextDelay(delays[delays.length - 1] ?? 0, { deadline: 0 }));
    expect(delays.slice(0, 4)).toEqual([500, 800, 1280, 2048]);
    expect(Math.max(...delays)).toBe(15_000);
    expect(delays.at(-1)).toBe(15_000);
  });
});

describe('pollSingleTask', () => {
  it('polls with growing gaps until the task completes', async () => {
    const src = source([pending, pending, pending, completed]);
    const result = pollSingleTask(src, 't', { deadline: 60_000 });
    await vi.advanceTimersByTimeAsync(499);
    expect(src.calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toBe(completed);
    expect(src.calls).toEqual([500, 1300, 2580, 4628]);
  });

  it('gives up at the deadline with null', async () => {
    const src = source([pending]);
    const result = pollSingleTask(src, 't', { deadline: 100_000 });
    await vi.advanceTimersByTimeAsync(200_000);
    expect(await result).toBeNull();
    expect(src.calls.at(-1)).toBeLessThanOrEqual(100_000);
    // Gaps never exceed 15 s.
    const gaps = src.calls.slice(1).map((time, i) => time - (src.calls[i] ?? 0));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(15_000);
  });

  it('keeps polling through network errors and waits at least Retry-After on 429', async () => {
    const src = source([
      new ApiError('network', 'down'),
      new ApiError('rate_limited', 'slow', 429, 10),
      completed,
    ]);
    const result = pollSingleTask(src, 't', { deadline: 60_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toBe(completed);
    expect(src.calls[2]! - src.calls[1]!).toBeGreaterThanOrEqual(10_000);
  });

  it('throws the last failure when the deadline passes while the service is unreachable', async () => {
    const src = source([pending, new ApiError('network', 'down')]);
    const result = pollSingleTask(src, 't', { deadline: 30_000 }).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toMatchObject({ kind: 'network' });
  });

  it('stops at once on a response that breaks the contract', async () => {
    const src = source([new ApiError('server', 'Unexpected response from the service', 200)]);
    const result = pollSingleTask(src, 't', { deadline: 60_000 }).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toMatchObject({ kind: 'server' });
    expect(src.calls).toHaveLength(1);
  });

  it('stops on errors that will not go away', async () => {
    const src = source([new ApiError('invalid_key', 'Invalid API key', 401)]);
    const result = pollSingleTask(src, 't', { deadline: 60_000 });
    const settled = result.catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await settled).toMatchObject({ kind: 'invalid_key' });
    expect(src.calls).toHaveLength(1);
  });
});

describe('a task whose deadline passed while the worker was stopped', () => {
  it('is still asked about once', async () => {
    const src = source([completed]);
    const result = pollSingleTask(src, 't', { deadline: -1 });
    await vi.advanceTimersByTimeAsync(10);
    expect(await result).toBe(completed);
    expect(src.calls).toHaveLength(1);
  });
});
