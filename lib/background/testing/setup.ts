/**
 * Test support for background modules: a clean fake browser and IndexedDB per test, and a
 * scripted service on 127.0.0.1 that behaves like the real one for the five endpoints.
 */
import 'fake-indexeddb/auto';
import { DESCRIPTIONS, PATHS } from '@verimark/contract';
import { clear } from 'idb-keyval';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  fail,
  ok,
  type RecordedRequest,
  type ScriptedResponse,
  startScriptedServer,
} from '@/lib/api/testing/scripted-server';
import { originOfUrl, setApiKey } from '@/lib/storage/api-key';
import { idbStore } from '@/lib/storage/idb';
import type { BulkJob } from '@/lib/storage/jobs';
import { updateSettings } from '@/lib/storage/settings';

export async function resetBackground(): Promise<void> {
  fakeBrowser.reset();
  await Promise.all([
    clear(idbStore('verdicts')),
    clear(idbStore('jobs')),
    clear(idbStore('secrets')),
    clear(idbStore('uploads')),
    clear(),
  ]);
}

export async function configure(serviceUrl: string, apiKey = 'test-key'): Promise<void> {
  await updateSettings({ serviceUrl });
  await setApiKey(apiKey, originOfUrl(serviceUrl));
}

interface FakeServiceState {
  /** Status calls a task stays pending before it completes. */
  pendingPolls: number;
  /** The completed result's extra fields (status, reason, …). */
  result: (email: string) => Record<string, unknown>;
  /** Bulk status answers, consumed in order; the last one repeats. */
  bulkStatuses: { status: string; download_url: string }[];
  /** Overrides the answer of a path (e.g. an error). */
  override: Partial<Record<string, ScriptedResponse>>;
  tasks: Map<string, { email: string; polls: number }>;
  uploads: FormData[];
  /** What the file list answers (page 1, unfiltered: tests put only what they mean). */
  files: Record<string, unknown>[];
}

export function fakeService(initial: Partial<FakeServiceState> = {}) {
  const state: FakeServiceState = {
    pendingPolls: 1,
    result: () => ({ status: 'deliverable', reason: 'accepted_email' }),
    bulkStatuses: [{ status: 'completed', download_url: '' }],
    override: {},
    tasks: new Map(),
    uploads: [],
    files: [],
    ...initial,
  };
  let bulkCalls = 0;
  const script = (req: RecordedRequest): ScriptedResponse => {
    const override = state.override[req.path];
    if (override) return override;
    const body = (req.json ?? {}) as Record<string, string>;
    switch (req.path) {
      case PATHS.single: {
        const taskId = `task-${state.tasks.size + 1}`;
        state.tasks.set(taskId, { email: body.email ?? '', polls: 0 });
        return ok(DESCRIPTIONS.queued, { task_id: taskId });
      }
      case PATHS.singleStatus: {
        const task = state.tasks.get(body.task_id ?? '');
        if (!task) return fail(404, 'Task not found');
        task.polls += 1;
        if (task.polls <= state.pendingPolls) {
          return ok(DESCRIPTIONS.singleStatus, { task_id: body.task_id, processing_status: 'pending' });
        }
        const result = { task_id: body.task_id, processing_status: 'completed', email: task.email };
        return ok(DESCRIPTIONS.singleStatus, { ...result, ...state.result(task.email) });
      }
      case PATHS.bulk:
        if (req.form) state.uploads.push(req.form);
        return ok(DESCRIPTIONS.queued, { file_id: `file-${state.uploads.length}` });
      case PATHS.bulkStatus: {
        const answer = state.bulkStatuses[Math.min(bulkCalls++, state.bulkStatuses.length - 1)];
        return ok(DESCRIPTIONS.bulkStatus, answer);
      }
      case PATHS.bulkFiles:
        return ok(DESCRIPTIONS.bulkFiles, {
          files: state.files,
          totalCount: state.files.length,
          page: 1,
          pageSize: 50,
        });
      default:
        return fail(404, 'Not found');
    }
  };
  return { state, script };
}

interface ServiceEnv {
  server: Awaited<ReturnType<typeof startScriptedServer>>;
  service: ReturnType<typeof fakeService>;
}

/**
 * Registers the hooks most background tests share: one scripted service on 127.0.0.1 for the
 * file, and per test a clean background configured for it with a fresh fake service.
 */
export function useFakeService(initial: () => Partial<FakeServiceState> = () => ({})): ServiceEnv {
  const env = {} as ServiceEnv;
  beforeAll(async () => {
    env.server = await startScriptedServer(() => ({ status: 500 }));
  });
  afterAll(() => env.server.close());
  beforeEach(async () => {
    await resetBackground();
    await configure(env.server.url);
    env.service = fakeService(initial());
    env.server.setScript(env.service.script);
    env.server.requests.length = 0;
  });
  return env;
}

export const countRequests = (requests: RecordedRequest[], path: string) =>
  requests.filter((req) => req.path === path).length;

/** Waits (in small real steps) until `condition` holds, failing after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition not reached');
}

/** A persisted bulk job for tests: a queued file `file-1` named `a.csv`, with `change` on top. */
export function bulkJob(change: Partial<BulkJob> & { id: string }): BulkJob {
  const now = Date.now();
  return {
    kind: 'bulk',
    fileId: 'file-1',
    fileName: 'a.csv',
    phase: 'queued',
    progress: 0,
    error: null,
    createdAt: now,
    blobKey: '',
    emailColumn: 'Email',
    mode: 'catch_all',
    notified: false,
    updatedAt: now,
    ...change,
  };
}
