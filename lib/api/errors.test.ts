/** ApiErrors cross a runtime message through the real @webext-core/messaging, fields intact. */
import { defineExtensionMessaging } from '@webext-core/messaging';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installRuntimeMessaging } from '@/lib/testing/runtime-messaging';
import { ApiError, fromMessageError } from './errors';

interface Protocol {
  fail(data: { throw: 'api' | 'plain' | 'lookalike' }): void;
}
const { sendMessage, onMessage, removeAllListeners } = defineExtensionMessaging<Protocol>();

beforeAll(() => {
  installRuntimeMessaging();
  onMessage('fail', ({ data }) => {
    if (data.throw === 'api') throw new ApiError('rate_limited', 'Rate limit exceeded', 429, 42);
    // The string form errors had before they crossed as fields: no longer decoded.
    if (data.throw === 'lookalike') throw new Error('[invalid_key]{retry=3} Invalid API key');
    throw new TypeError('boom');
  });
});
afterAll(() => removeAllListeners());

const received = (kind: 'api' | 'plain' | 'lookalike') =>
  sendMessage('fail', { throw: kind }).then(
    () => new Error('resolved'),
    (err: unknown) => err,
  );

describe('errors across runtime messages', () => {
  it('rebuilds an ApiError with its kind, status and Retry-After from the fields that arrive', async () => {
    const raw = await received('api');
    expect(raw).not.toBeInstanceOf(ApiError);
    const err = fromMessageError(raw);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      name: 'ApiError',
      kind: 'rate_limited',
      message: 'Rate limit exceeded',
      status: 429,
      retryAfterSeconds: 42,
    });
  });

  it('reads any other error as a server error with its text', async () => {
    expect(fromMessageError(await received('plain'))).toMatchObject({ kind: 'server', message: 'boom' });
    expect(fromMessageError(await received('lookalike'))).toMatchObject({
      kind: 'server',
      message: '[invalid_key]{retry=3} Invalid API key',
      retryAfterSeconds: null,
    });
  });

  it('refuses fields that are not an ApiError’s', () => {
    const forged = { name: 'ApiError', kind: 'bogus', message: 'x', status: 1, retryAfterSeconds: 1 };
    expect(fromMessageError(forged).kind).toBe('server');
    const odd = {
      name: 'ApiError',
      kind: 'network',
      message: 'Offline',
      status: '500',
      retryAfterSeconds: NaN,
    };
    expect(fromMessageError(odd)).toMatchObject({ kind: 'network', status: null, retryAfterSeconds: null });
    expect(fromMessageError('plain text')).toMatchObject({ kind: 'server', message: 'plain text' });
  });
});
