/**
 * The limit before the door: failed requests (401, 403) counted per client address, which is
 * refused with 429 past DOOR_LIMIT_PER_MIN a minute.
 */
import { ERRORS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** Failed requests one client address may make per window before it is refused outright. */
export const DOOR_LIMIT_PER_MIN = 30;
const WINDOW_MS = 60_000;
/** Addresses remembered at most: past it, windows that ended are forgotten first, then the oldest. */
const MAX_ADDRESSES = 100_000;

interface Window {
  failures: number;
  endsAt: number;
}

/**
 * The limit before the door (docs/design.md §4): requests refused for their key (401) or their
 * download signature (403) count against the client address (request.ip, as TRUST_PROXY lets it
 * be set), and past `max` in a minute that address is answered 429 before its key is looked up
 * at all. Valid keys are limited afterwards, per key, by the rate limiter. In memory, per process.
 */
export function installDoorLimit(app: FastifyInstance, max: number): void {
  const windows = new Map<string, Window>();

  const forgetEnded = (now: number) => {
    for (const [address, window] of windows) if (window.endsAt <= now) windows.delete(address);
    while (windows.size >= MAX_ADDRESSES) {
      const oldest = windows.keys().next().value;
      if (oldest === undefined) break;
      windows.delete(oldest);
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    const window = windows.get(request.ip);
    if (!window) return;
    const now = Date.now();
    if (window.endsAt <= now) {
      windows.delete(request.ip);
      return;
    }
    if (window.failures < max) return;
    reply.header('retry-after', String(Math.ceil((window.endsAt - now) / 1000)));
    throw new HttpError(429, ERRORS.rateLimited);
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    const now = Date.now();
    let window = windows.get(request.ip);
    if (!window || window.endsAt <= now) {
      if (windows.size >= MAX_ADDRESSES) forgetEnded(now);
      window = { failures: 0, endsAt: now + WINDOW_MS };
      windows.set(request.ip, window);
    }
    window.failures++;
  });
}
