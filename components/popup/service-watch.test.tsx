// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { asReceived } from '@/lib/api/testing/api-error';
import { mountEachTest } from './testing/mount-each';

/** The service's answers to the watch's probe (the free list call), in order; then it answers. */
const answers: ('down' | 'up')[] = [];
const probes: number[] = [];
vi.mock('@/lib/shared/messages', () => ({
  sendMessage: vi.fn(async (type: string) => {
    if (type !== 'listFiles') throw new Error(`unexpected ${type}`);
    probes.push(Date.now());
    if ((answers.shift() ?? 'up') === 'down')
      throw asReceived(new ApiError('network', 'Cannot reach the service'));
    return { files: [], totalCount: 0, page: 1, pageSize: 1 };
  }),
}));

const { ApiStatusProvider, useApi, useApiStatus, useRecovered } = await import('./api-status');

let call: ReturnType<typeof useApi>;
let kind: string | undefined;
let recovered = 0;

function Probe() {
  call = useApi();
  kind = useApiStatus().error?.kind;
  recovered = useRecovered();
  return null;
}

const offline = () => Promise.reject(asReceived(new ApiError('network', 'Cannot reach the service')));

mountEachTest(
  () => (
    <ApiStatusProvider>
      <Probe />
    </ApiStatusProvider>
  ),
  () => {
    answers.length = 0;
    probes.length = 0;
  },
);

describe('service watch', () => {
  it('asks the service again with backoff while it is down, then clears the banner and says it is back', async () => {
    answers.push('down', 'down');
    const start = Date.now();
    await act(async () => {
      await call(offline, 'verify');
    });
    expect(kind).toBe('network');
    for (let i = 0; i < 3; i++) {
      await act(async () => {
        await vi.advanceTimersToNextTimerAsync();
      });
    }
    // 2 s, then 4 s more, then 8 s more: the third probe answers.
    expect(probes.map((at) => at - start)).toEqual([2000, 6000, 14000]);
    expect(kind).toBeUndefined();
    expect(recovered).toBe(1);
  });

  it('does not watch an error the service itself decided (a refused key) until "Retry"', async () => {
    await act(async () => {
      await call(() => Promise.reject(asReceived(new ApiError('invalid_key', 'Invalid API key'))), 'verify');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(probes).toEqual([]);
    expect(kind).toBe('invalid_key');
  });
});
