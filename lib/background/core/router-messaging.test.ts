/** The background's handlers behind the real messaging library: callers get typed ApiErrors. */

import { PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, fromMessageError } from '@/lib/api/errors';
import { fail } from '@/lib/api/testing/scripted-server';
import { useFakeService } from '@/lib/background/testing/setup';
import { removeAllListeners, sendMessage } from '@/lib/shared/messages';
import { installRuntimeMessaging, type Transport } from '@/lib/testing/runtime-messaging';
import { registerHandlers } from './router';

const ID = 'test-extension-id';
const popup = { id: ID, url: `chrome-extension://${ID}/popup.html` };
const contentScript = { id: ID, url: 'https://crm.example.com/contacts', tab: { id: 7 } };

const env = useFakeService(() => ({
  override: { [PATHS.bulkFiles]: fail(429, 'Rate limit exceeded', { 'retry-after': '120' }) },
}));
let transport: Transport;
beforeAll(() => {
  transport = installRuntimeMessaging();
  registerHandlers();
});
afterAll(() => removeAllListeners());

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => new Error('resolved'),
    (err: unknown) => fromMessageError(err),
  );

describe('errors from background handlers', () => {
  it('reach the popup as the ApiError the client raised, Retry-After included', async () => {
    transport.sender = popup;
    const err = await rejection(sendMessage('listFiles', { page: 1, pageSize: 10 }));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 120 });
    expect(env.server.requests.length).toBeGreaterThan(0);
  });

  it('reach a content script refused a message as bad_request', async () => {
    transport.sender = contentScript;
    const err = await rejection(sendMessage('getSettings'));
    expect(err).toMatchObject({ kind: 'bad_request', status: null, retryAfterSeconds: null });
    expect(err.message).toMatch(/not allowed/);
  });

  it('still deliver answers', async () => {
    transport.sender = contentScript;
    expect(await sendMessage('lookupCached', { emails: ['ann@example.com'] })).toEqual({
      'ann@example.com': null,
    });
  });
});
