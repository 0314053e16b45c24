/**
 * The limit before the door (docs/design.md §4, docs/self-hosting.md "On the open internet"):
 * failed requests counted per client address — IPv6 per /64 — before any key lookup, with a pass
 * for keys that address recently used successfully.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import { ERRORS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { presentedKey } from './auth';
import { HttpError } from './errors';

/** Failed requests one client address may make per window before it is refused outright. */
export const DOOR_LIMIT_PER_MIN = 30;
const WINDOW_MS = 60_000;
/** How long a key accepted from an address keeps passing that address's limit. */
export const KEY_PASS_MS = 10 * 60_000;
/** Keys remembered per address at most (an office behind one NAT address); past it, the oldest goes. */
const KEYS_PER_ADDRESS = 64;
/** Addresses remembered at most, per table: past it, entries that ended are forgotten first, then the oldest. */
const MAX_ADDRESSES = 100_000;

interface Window {
  failures: number;
  endsAt: number;
}

/**
 * The unit a client is counted in: an IPv4 address (an IPv4-mapped IPv6 address as its IPv4
 * address), or an IPv6 address's /64 — one subscriber's network, which it may rotate through
 * freely (RFC 4291's interface identifiers).
 */
export function clientBucket(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (net.isIPv6(ip)) return `${ipv6Groups(ip).slice(0, 4).join(':')}::/64`;
  return ip;
}

/** The eight 16-bit groups of an IPv6 address, as lowercase hex without leading zeros. */
function ipv6Groups(ip: string): string[] {
  let text = ip.replace(/%.*$/, '').toLowerCase();
  // A trailing dotted IPv4 part (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) as two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16).toString(16));
}

/** Deletes the oldest entries of a Map (insertion order) until it has room for one more. */
function makeRoom<V>(map: Map<string, V>, ended: (value: V) => boolean): void {
  if (map.size < MAX_ADDRESSES) return;
  for (const [k, v] of map) if (ended(v)) map.delete(k);
  while (map.size >= MAX_ADDRESSES) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/**
 * Requests refused for their key (401) or their download signature (403) count against the
 * client's bucket (request.ip, as TRUST_PROXY lets it be set; IPv6 per /64), and past `max` in a
 * minute that bucket is answered 429 before its key is looked up at all — except a request whose
 * key was accepted from that bucket in the last KEY_PASS_MS: valid keys behind one NAT address
 * keep working while someone else there guesses. Valid keys are limited afterwards, per key, by
 * the rate limiter. Keys are remembered as SHA-256 digests, in memory, per process.
 */
export function installDoorLimit(app: FastifyInstance, max: number): void {
  const windows = new Map<string, Window>();
  /** Per bucket: digest of a key accepted from there → until when it passes. */
  const passes = new Map<string, Map<string, number>>();
  const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

  const hasPass = (bucket: string, key: string | null, now: number): boolean => {
    if (!key) return false;
    const until = passes.get(bucket)?.get(digest(key));
    return until !== undefined && until > now;
  };

  app.addHook('onRequest', async (request, reply) => {
    const bucket = clientBucket(request.ip);
    const window = windows.get(bucket);
    if (!window) return;
    const now = Date.now();
    if (window.endsAt <= now) {
      windows.delete(bucket);
      return;
    }
    if (window.failures < max) return;
    if (hasPass(bucket, presentedKey(request), now)) return;
    reply.header('retry-after', String(Math.ceil((window.endsAt - now) / 1000)));
    throw new HttpError(429, ERRORS.rateLimited);
  });

  app.addHook('onResponse', async (request, reply) => {
    const now = Date.now();
    const bucket = clientBucket(request.ip);
    if (request.account && reply.statusCode !== 401) {
      const key = presentedKey(request);
      if (!key) return;
      let keys = passes.get(bucket);
      if (!keys) {
        makeRoom(passes, (k) => [...k.values()].every((until) => until <= now));
        keys = new Map();
        passes.set(bucket, keys);
      }
      const id = digest(key);
      keys.delete(id);
      keys.set(id, now + KEY_PASS_MS);
      if (keys.size > KEYS_PER_ADDRESS) {
        const oldest = keys.keys().next().value;
        if (oldest !== undefined) keys.delete(oldest);
      }
      return;
    }
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    let window = windows.get(bucket);
    if (!window || window.endsAt <= now) {
      makeRoom(windows, (w) => w.endsAt <= now);
      window = { failures: 0, endsAt: now + WINDOW_MS };
      windows.set(bucket, window);
    }
    window.failures++;
  });
}
