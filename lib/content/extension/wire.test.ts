import { defineExtensionMessaging } from '@webext-core/messaging';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Listener = (message: unknown, sender: unknown, respond: (reply: unknown) => void) => unknown;

/**
 * One `chrome.runtime` for both ends: what one side sends reaches the other side's listeners, as
 * between the content script and the background (or the popup, through tabs.sendMessage).
 */
function fakeRuntime() {
  const listeners = new Set<Listener>();
  const deliver = (message: unknown, sender: unknown) =>
    new Promise((resolve) => {
      for (const listener of listeners) if (listener(message, sender, resolve) === true) return;
      resolve(undefined);
    });
  const runtime = {
    id: 'verimark-test',
    sendMessage: (message: unknown, callback?: (reply: unknown) => void) => {
      const reply = deliver(message, { id: 'verimark-test', tab: { id: 1 } });
      if (!callback) return reply;
      void reply.then(callback);
      return undefined;
    },
    onMessage: {
      addListener: (l: Listener) => listeners.add(l),
      removeListener: (l: Listener) => listeners.delete(l),
    },
    lastError: undefined,
  };
  const tabs = {
    sendMessage: (_tab: number, message: unknown, _options: unknown, callback: (reply: unknown) => void) =>
      void deliver(message, { id: 'verimark-test', url: 'chrome-extension://verimark-test/popup.html' }).then(
        callback,
      ),
  };
  vi.stubGlobal('chrome', { runtime, tabs });
  vi.stubGlobal('browser', undefined);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('the content script speaks @webext-core/messaging on the wire', () => {
  it('its requests reach the library handlers, with their answers and errors (fields kept)', async () => {
    fakeRuntime();
    const { onMessage } = defineExtensionMessaging<{ verifyEmail(data: { email: string }): string }>();
    onMessage('verifyEmail', ({ data }) => {
      if (data.email === 'x')
        throw Object.assign(new Error('limit'), { name: 'ApiError', kind: 'rate_limited' });
      return `ok ${data.email}`;
    });
    const { sendMessage } = await import('./wire');
    await expect(sendMessage('verifyEmail', { email: 'ann@acme.test' })).resolves.toBe('ok ann@acme.test');
    await expect(sendMessage('verifyEmail', { email: 'x' })).rejects.toMatchObject({
      name: 'ApiError',
      kind: 'rate_limited',
      message: 'limit',
    });
    await expect(sendMessage('contentConfig')).rejects.toThrow('No response');
  });

  it('answers the library sender (the popup), errors included, and stops on abort', async () => {
    fakeRuntime();
    const { answer } = await import('./wire');
    const stop = new AbortController();
    answer(
      {
        pageAddresses: (sender) => [(sender as { url: string }).url],
        verifyPage: () => {
          throw new Error('Only the extension may ask this');
        },
      },
      stop.signal,
    );
    const { sendMessage } = defineExtensionMessaging<{ pageAddresses(): string[]; verifyPage(): number }>();
    await expect(sendMessage('pageAddresses', undefined, 1)).resolves.toEqual([
      'chrome-extension://verimark-test/popup.html',
    ]);
    await expect(sendMessage('verifyPage', undefined, 1)).rejects.toThrow('Only the extension may ask this');
    stop.abort();
    await expect(sendMessage('pageAddresses', undefined, 1)).rejects.toThrow('No response');
  });
});
