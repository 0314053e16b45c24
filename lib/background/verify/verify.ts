/**
 * Verifying one address: local syntax check, cache, in-flight de-duplication (the same address
 * asked twice at once is one service call and one credit), then the task is persisted and
 * followed to completion — also after the service worker was stopped (`resumeSingleJobs`).
 */

import type { Mode } from '@verimark/contract';
import { checkEmail } from '@verimark/contract/address';
import type { ApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { isRefusal, isRetryable } from '@/lib/api/retry';
import { readVerdict } from '@/lib/api/verdict';
import { ensurePollAlarm } from '@/lib/background/core/poll-alarm';
import { getClient } from '@/lib/background/core/service';
import { updateBadge } from '@/lib/background/core/toolbar-badge';
import { t } from '@/lib/shared/i18n';
import { invalidVerdict, timedOutVerdict } from '@/lib/shared/local-verdict';
import type { Settings, VerdictView } from '@/lib/shared/views';
import { addJob, getJobs, removeJob, type SingleJob } from '@/lib/storage/jobs';
import { addPendingCheck, removePendingCheck } from '@/lib/storage/pending-checks';
import { getSettings } from '@/lib/storage/settings';
import { addRecent, getCached, getCachedMany, putCached } from '@/lib/storage/verdict-cache';
import { pollSingleTask } from './single-poller';

/** How long a single task is followed before it counts as timed out. */
const SINGLE_DEADLINE_MS = 10 * 60_000;
/** How long a paid task is kept while the service cannot be reached (the alarm keeps asking). */
const SINGLE_KEEP_MS = 24 * 3_600_000;
/** Backoff of the status calls (tests shorten it). */
export const singlePollTiming = { initialDelayMs: 500, maxDelayMs: 15_000 };

const inFlight = new Map<string, Promise<VerdictView>>();
const followers = new Map<string, Promise<VerdictView>>();

/** `cacheTtlHours`: from the settings the request read, or read here (a task resumed after a restart). */
async function finish(
  job: SingleJob,
  view: VerdictView,
  fromService: boolean,
  cacheTtlHours?: number,
): Promise<VerdictView> {
  if (fromService) {
    await putCached(view, job.mode, cacheTtlHours ?? (await getSettings()).cacheTtlHours);
    await addRecent(view);
  }
  await removeJob(job.id);
  await updateBadge();
  return view;
}

async function follow(client: ApiClient, job: SingleJob, cacheTtlHours?: number): Promise<VerdictView> {
  try {
    const data = await pollSingleTask(client, job.taskId, { deadline: job.deadline, ...singlePollTiming });
    if (data) return await finish(job, readVerdict(data, job.email), true, cacheTtlHours);
    // Timed out on our side: answered as unknown, but not cached (the service may still finish).
    return await finish(job, timedOutVerdict(job.email), false);
  } catch (err) {
    if (!keepAfter(err, job)) {
      await removeJob(job.id);
      await updateBadge();
    }
    throw err;
  }
}

/**
 * Whether a task whose polling failed stays in the job list (the credit is spent: its result is
 * still wanted). Offline, 5xx or 429: for up to SINGLE_KEEP_MS. A refused key or payment (401/402
 * mid-poll): until the task's deadline, in case the user fixes it. Anything else (404: the task
 * is gone; a response that breaks the contract) drops it.
 */
function keepAfter(err: unknown, job: SingleJob, now = Date.now()): boolean {
  if (isRetryable(err)) return now < job.createdAt + SINGLE_KEEP_MS;
  return isRefusal(err) && now < job.deadline;
}

/** Follows a persisted task; a task already being followed in this worker is joined. */
function followSingle(client: ApiClient, job: SingleJob, cacheTtlHours?: number): Promise<VerdictView> {
  const existing = followers.get(job.taskId);
  if (existing) return existing;
  const promise = follow(client, job, cacheTtlHours).finally(() => followers.delete(job.taskId));
  followers.set(job.taskId, promise);
  return promise;
}

/** Called right before a credit is spent; throws to refuse (e.g. a content script over its limit). */
type SpendGuard = () => void | Promise<void>;

export interface VerifyOptions {
  /** Called right before a credit is spent; throws to refuse. */
  guard?: SpendGuard;
  /** The check the guard allowed was not sent after all (the service refused or could not be reached). */
  unspent?: () => void | Promise<void>;
  /** Not sent because the service was unreachable: keep the check and send it when it is back (pending-checks.ts). */
  keepOffline?: boolean;
}

async function send(
  client: ApiClient,
  email: string,
  mode: Mode,
  force: boolean,
  keepOffline: boolean,
): Promise<{ taskId: string }> {
  try {
    return await client.verifySingle(email, mode);
  } catch (err) {
    if (!keepOffline || !(err instanceof ApiError) || err.kind !== 'network') throw err;
    await addPendingCheck({ email, mode, force, queuedAt: Date.now() });
    await ensurePollAlarm();
    throw new ApiError('network', t('bg_queued_offline'));
  }
}

async function verifyUncached(
  { email, mode, force }: CheckedRequest,
  settings: Settings,
  options: VerifyOptions,
): Promise<VerdictView> {
  const client = await getClient(settings);
  // A task for this address may still be followed from before a worker restart: join it.
  const persisted = (await getJobs()).find(
    (job): job is SingleJob => job.kind === 'single' && job.email === email && job.mode === mode,
  );
  if (persisted) return followSingle(client, persisted, settings.cacheTtlHours);
  await options.guard?.();
  let taskId: string;
  try {
    ({ taskId } = await send(client, email, mode, force, options.keepOffline ?? false));
  } catch (err) {
    await options.unspent?.();
    throw err;
  }
  const now = Date.now();
  const job: SingleJob = {
    kind: 'single',
    id: `single-${taskId}`,
    taskId,
    email,
    mode,
    createdAt: now,
    deadline: now + SINGLE_DEADLINE_MS,
  };
  await addJob(job);
  // Paid and persisted: a check kept while offline for this address is answered by this task.
  await removePendingCheck({ email, mode });
  await Promise.all([updateBadge(), ensurePollAlarm()]);
  return followSingle(client, job, settings.cacheTtlHours);
}

/** A request whose address is normalised and valid (the rulebook's checkEmail), its mode decided. */
export interface CheckedRequest {
  email: string;
  mode: Mode;
  /** Bypass the cache ("Verify again"). */
  force: boolean;
}

/** Normalises the address, reads the settings and the cache (unless `force`), then asks the service. */
export async function verifyEmail(
  input: { email: string; mode?: Mode; force?: boolean },
  options: VerifyOptions = {},
): Promise<VerdictView> {
  const { email, valid } = checkEmail(input.email);
  if (!valid) return invalidVerdict(email);
  const settings = await getSettings();
  const mode = input.mode ?? settings.defaultMode;
  if (!input.force) {
    const cached = await getCached(email, mode);
    if (cached) return cached;
  }
  return verifyChecked({ email, mode, force: input.force === true }, settings, options);
}

/**
 * The service's verdict for a checked request whose cache entry the caller already asked for (or
 * bypasses): no second normalisation, settings read or cache read. The same address and mode
 * asked again while it runs joins it (one call, one credit).
 */
export function verifyChecked(
  request: CheckedRequest,
  settings: Settings,
  options: VerifyOptions = {},
): Promise<VerdictView> {
  const key = `${request.mode}:${request.email}`;
  const running = inFlight.get(key);
  if (running) return running;
  const promise = verifyUncached(request, settings, options).finally(() => inFlight.delete(key));
  inFlight.set(key, promise);
  return promise;
}

export async function lookupCached(emails: string[]): Promise<Record<string, VerdictView | null>> {
  const checked = emails.map((raw) => ({ raw, ...checkEmail(raw) }));
  const cached = await getCachedMany(checked.filter((item) => item.valid).map((item) => item.email));
  // No prototype: an address a page wrote as `__proto__` is a key like any other.
  const result: Record<string, VerdictView | null> = Object.create(null);
  for (const { raw, email, valid } of checked) {
    result[raw] = valid ? (cached.get(email) ?? null) : invalidVerdict(email);
  }
  return result;
}

/** Re-attaches to every persisted single task (after a worker restart or browser start). */
export async function resumeSingleJobs(): Promise<void> {
  const jobs = (await getJobs()).filter((job): job is SingleJob => job.kind === 'single');
  if (jobs.length === 0) return;
  let client: ApiClient;
  try {
    client = await getClient();
  } catch (err) {
    if (err instanceof ApiError) return; // Not configured: the tasks wait.
    throw err;
  }
  for (const job of jobs) {
    followSingle(client, job).catch((err) => console.warn('[verimark] task', job.taskId, err));
  }
}
