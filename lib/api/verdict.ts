/**
 * Reads a completed single result into a VerdictView, defensively (docs/design.md §3): known field
 * names and their synonyms from other services are understood, everything else is kept raw
 * in `extra` so it can be shown rather than dropped.
 */

import { normalizeEmail } from '@verimark/contract/address';
import type { MarkStatus, VerdictView } from '@/lib/shared/views';

type Verdict = Extract<MarkStatus, 'deliverable' | 'undeliverable' | 'risky' | 'unknown'>;

const SYNONYMS: Record<string, Verdict> = {};
const add = (verdict: Verdict, words: string[]) => {
  for (const word of words) SYNONYMS[word] = verdict;
};
add('deliverable', ['deliverable', 'valid', 'ok', 'good', 'safe', 'accepted', 'verified', 'exists', 'true']);
add('undeliverable', [
  'undeliverable',
  'invalid',
  'bad',
  'rejected',
  'bounce',
  'bounced',
  'not_exists',
  'false',
]);
add('risky', [
  'risky',
  'catch_all',
  'catchall',
  'accept_all',
  'acceptall',
  'disposable',
  'spamtrap',
  'do_not_mail',
]);
add('unknown', ['unknown', 'undetermined', 'unverifiable', 'timeout', 'greylisted']);

/** Fields that may carry the verdict, in order of preference. */
const VERDICT_FIELDS = ['status', 'result', 'verdict', 'email_status', 'state'];
const REASON_FIELDS = ['reason', 'sub_status', 'status_reason', 'result_reason'];
const MX_FIELDS = ['mx_host', 'mx_record', 'mx'];
const PROVIDER_FIELDS = ['provider', 'mx_provider', 'esp'];
const SUGGESTION_FIELDS = ['suggestion', 'did_you_mean', 'suggested_correction'];
const TIME_FIELDS = ['verified_at', 'checked_at', 'updatedAt', 'updated_at'];
/** Known fields that are not shown: bookkeeping of the task. */
const BOOKKEEPING = ['task_id', 'processing_status', 'mode', 'credits_used', 'credits_refunded'];

/** Top-level booleans some services send instead of a `checks` object → our check names. */
const CHECK_ALIASES: Record<string, string> = {
  syntax: 'syntax',
  format_valid: 'syntax',
  mx_found: 'mx_found',
  has_mx: 'mx_found',
  smtp_connected: 'smtp_connected',
  smtp_check: 'smtp_connected',
  catch_all: 'catch_all',
  is_catch_all: 'catch_all',
  accept_all: 'catch_all',
  disposable: 'disposable',
  is_disposable: 'disposable',
  role_account: 'role_account',
  is_role_account: 'role_account',
  role: 'role_account',
  free_provider: 'free_provider',
  is_free_provider: 'free_provider',
  free: 'free_provider',
  free_email: 'free_provider',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const wordOf = (value: string) =>
  value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Maps a word from any service to our verdict, or null when it is not one. */
export function verdictOf(value: unknown): Verdict | null {
  if (typeof value === 'boolean') return value ? 'deliverable' : 'undeliverable';
  return typeof value === 'string' ? (SYNONYMS[wordOf(value)] ?? null) : null;
}

/** Values that also serve as a request's status (`"status": "ok"`, `true`): verdicts of last resort. */
const WEAK = new Set(['ok', 'true', 'false']);
const isWeak = (value: unknown) =>
  typeof value === 'boolean' || (typeof value === 'string' && WEAK.has(wordOf(value)));

/** The first non-empty string among `fields`; null and empty values count as read too. */
function firstString(data: Record<string, unknown>, fields: string[], used: Set<string>): string | null {
  let found: string | null = null;
  for (const field of fields) {
    const value = data[field];
    if (value === null || value === '') used.add(field);
    if (found === null && typeof value === 'string' && value.trim() !== '') {
      used.add(field);
      found = value;
    }
  }
  return found;
}

/** The verdict of the first field holding a clear one; a weak one only when no field holds a clear one. */
function findVerdict(data: Record<string, unknown>, used: Set<string>): Verdict | null {
  for (const weakToo of [false, true]) {
    for (const field of VERDICT_FIELDS) {
      const value = data[field];
      const verdict = isRecord(value) || (!weakToo && isWeak(value)) ? null : verdictOf(value);
      if (verdict) {
        used.add(field);
        return verdict;
      }
    }
  }
  return null;
}

/** A flag as services send it: a boolean, or the strings "true"/"false" (any case); else undefined. */
function flagOf(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : undefined;
}

function readChecks(data: Record<string, unknown>, used: Set<string>): Record<string, boolean | null> {
  const checks: Record<string, boolean | null> = {};
  for (const [field, name] of Object.entries(CHECK_ALIASES)) {
    const value = flagOf(data[field]);
    if (value !== undefined && !used.has(field)) {
      checks[name] = value;
      used.add(field);
    }
  }
  const nested = data.checks;
  if (isRecord(nested)) {
    used.add('checks');
    for (const [name, value] of Object.entries(nested)) {
      const flag = value === null ? null : flagOf(value);
      if (flag !== undefined) checks[name] = flag;
    }
  }
  return checks;
}

/** A time in ms since the epoch; numbers below 1e12 are seconds (some services send those). */
function timeOf(value: unknown): number {
  if (typeof value === 'string') return Date.parse(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  return Number.NaN;
}

function readTime(data: Record<string, unknown>, used: Set<string>, now: number): number {
  for (const field of TIME_FIELDS) {
    const time = timeOf(data[field]);
    if (!Number.isNaN(time)) {
      used.add(field);
      return time;
    }
  }
  return now;
}

/**
 * The verdict of a completed result. A nested `result` object (some services wrap it) is read
 * as well; a result without any recognisable verdict is `unknown`, with its fields in `extra`.
 * The verdict is always about the address asked (normalized): it is the cache key, so a service
 * that echoes the address differently (e.g. lowercased) must not make the next ask pay again;
 * an echo that differs is kept in `extra`.
 */
export function readVerdict(
  raw: Record<string, unknown>,
  requestedEmail: string,
  now = Date.now(),
): VerdictView {
  const inner = isRecord(raw.result) ? raw.result : {};
  const data: Record<string, unknown> = { ...inner, ...raw };
  if (isRecord(raw.result)) delete data.result;
  const used = new Set<string>(BOOKKEEPING);
  const status = findVerdict(data, used) ?? 'unknown';
  const checks = readChecks(data, used);
  const email = normalizeEmail(requestedEmail);
  if (typeof data.email === 'string' && normalizeEmail(data.email) === email) used.add('email');
  const view: VerdictView = {
    email,
    status,
    reason: firstString(data, REASON_FIELDS, used),
    checks,
    mxHost: firstString(data, MX_FIELDS, used),
    suggestion: firstString(data, SUGGESTION_FIELDS, used),
    provider: firstString(data, PROVIDER_FIELDS, used) ?? undefined,
    verifiedAt: readTime(data, used, now),
    cached: false,
    extra: {},
  };
  for (const [field, value] of Object.entries(data)) {
    if (!used.has(field) && value !== undefined) view.extra[field] = value;
  }
  return view;
}
