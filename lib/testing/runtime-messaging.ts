/**
 * Test support: the `chrome.runtime` messaging transport that @webext-core/messaging drives
 * (callback-style `sendMessage`, `onMessage` listeners answering through `sendResponse`), which
 * WXT's fake browser does not implement. Messages and answers go through a JSON round trip, as
 * Chrome serialises runtime messages, so only what survives serialisation arrives.
 */
import { vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

type Listener = (message: unknown, sender: unknown, sendResponse: (answer: unknown) => void) => unknown;

const roundTrip = (value: unknown): unknown =>
  value === undefined ? undefined : JSON.parse(JSON.stringify(value));

export interface Transport {
  /** What listeners see as the message's sender (set it before sending). */
  sender: { id?: string; url?: string; tab?: { id?: number } };
}

/** Installs the transport on the global `chrome` the messaging library uses. */
export function installRuntimeMessaging(): Transport {
  const transport: Transport = { sender: {} };
  const listeners = new Set<Listener>();
  const runtime = {
    ...fakeBrowser.runtime,
    lastError: undefined,
    onMessage: {
      addListener: (listener: Listener) => listeners.add(listener),
      removeListener: (listener: Listener) => listeners.delete(listener),
    },
    sendMessage(message: unknown, callback: (answer: unknown) => void): void {
      const sent = roundTrip(message);
      for (const listener of listeners) {
        if (listener(sent, transport.sender, (answer) => callback(roundTrip(answer))) === true) return;
      }
      callback(undefined);
    },
  };
  vi.stubGlobal('chrome', { ...fakeBrowser, runtime });
  return transport;
}
