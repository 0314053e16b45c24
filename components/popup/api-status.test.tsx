// @vitest-environment happy-dom
import { act } from 'preact/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { asReceived } from '@/lib/api/testing/api-error';
import { type ApiCall, ApiStatusProvider, useApi, useApiStatus } from './api-status';
import type { ApiStatus } from './service-watch';
import { mountEachTest } from './testing/mount-each';

let call: ApiCall;
let status: ApiStatus;

function Probe() {
  call = useApi();
  status = useApiStatus();
  return null;
}

/** Errors cross the message boundary as an Error carrying the ApiError's fields. */
const fails = (error: ApiError) => () => Promise.reject(asReceived(error));

mountEachTest(() => (
  <ApiStatusProvider>
    <Probe />
  </ApiStatusProvider>
));

describe('useApi', () => {
  it('reads a failed call into the status and resolves with undefined', async () => {
    let result: unknown = 'unset';
    await act(async () => {
      result = await call(fails(new ApiError('invalid_key', 'Invalid API key')), 'verify');
    });
    expect(result).toBeUndefined();
    expect(status.error?.kind).toBe('invalid_key');
    expect(status.source).toBe('verify');
  });

  it('keeps "payment required" when another kind of call succeeds, clears it when the same kind does', async () => {
    await act(async () => {
      await call(fails(new ApiError('payment_required', 'Insufficient credits')), 'verify');
    });
    await act(async () => {
      await call(() => Promise.resolve(1), 'files');
    });
    await act(async () => {
      await call(() => Promise.resolve(1), 'local');
    });
    expect(status.error?.kind).toBe('payment_required');
    await act(async () => {
      await call(() => Promise.resolve(1), 'verify');
    });
    expect(status.error).toBeNull();
  });

  it('clears an offline error on any successful service call, never on a local one', async () => {
    await act(async () => {
      await call(fails(new ApiError('network', 'Failed to fetch')), 'verify');
    });
    await act(async () => {
      await call(() => Promise.resolve([]), 'local');
    });
    expect(status.error?.kind).toBe('network');
    await act(async () => {
      await call(() => Promise.resolve([]), 'files');
    });
    expect(status.error).toBeNull();
  });

  it('retries a rate-limited call after Retry-After, counting down, then succeeds', async () => {
    const fn = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(asReceived(new ApiError('rate_limited', 'Rate limit exceeded', 429, 3)))
      .mockResolvedValueOnce('verdict');
    let result: string | undefined;
    let done = false;
    await act(async () => {
      void call(fn, 'verify').then((value) => {
        result = value;
        done = true;
      });
    });
    expect(status).toMatchObject({ retryIn: 3 });
    expect(status.error?.kind).toBe('rate_limited');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(status.retryIn).toBe(2);
    expect(fn).toHaveBeenCalledTimes(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(done).toBe(true);
    expect(result).toBe('verdict');
    expect(fn).toHaveBeenCalledTimes(2);
    expect(status.error).toBeNull();
  });
});
