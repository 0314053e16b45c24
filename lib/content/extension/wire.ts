/**
 * The content script's side of the extension's messages, in @webext-core/messaging's wire format
 * (what lib/shared/messages.ts and page-messages.ts speak in the background and the popup): a
 * request `{ id, type, data, timestamp }`, answered `{ res }` or `{ err }` (an error's fields). Its
 * own few lines instead of the library (and its error serializer), which every page would
 * otherwise load.
 */
import type { ProtocolMap } from '@/lib/shared/messages';
import { browser } from './browser';

type Reply = { res?: unknown; err?: Record<string, unknown> } | undefined;

let id = Math.floor(Math.random() * 1e4);

/** Sends a message to the background; its answer, or its error with the fields it carried (lib/api/error-fields.ts). */
export async function sendMessage<K extends keyof ProtocolMap>(
  type: K,
  ...data: Parameters<ProtocolMap[K]>
): Promise<ReturnType<ProtocolMap[K]>> {
  const reply = (await browser.runtime.sendMessage({
    id: id++,
    type,
    data: data[0],
    timestamp: Date.now(),
  })) as Reply;
  if (!reply) throw new Error('No response');
  if (reply.err != null) throw Object.assign(new Error(), reply.err);
  return reply.res as ReturnType<ProtocolMap[K]>;
}

/** Answers messages of these types (the popup's page actions) until `signal` aborts. */
export function answer(handlers: Record<string, (sender: unknown) => unknown>, signal: AbortSignal): void {
  const listener = (message: unknown, sender: unknown, respond: (reply: Reply) => void): true | undefined => {
    const { type, timestamp } = (message ?? {}) as { type?: unknown; timestamp?: unknown };
    const handler = typeof type === 'string' && typeof timestamp === 'number' ? handlers[type] : undefined;
    if (!handler) return;
    new Promise((resolve) => resolve(handler(sender))).then(
      (res) => respond({ res }),
      (err: Error) => respond({ err: { name: 'Error', message: err.message, stack: '' } }),
    );
    return true;
  };
  browser.runtime.onMessage.addListener(listener);
  signal.addEventListener('abort', () => browser.runtime.onMessage.removeListener(listener), { once: true });
}
