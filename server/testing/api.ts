/**
 * A small HTTP client for the service's tests: real fetch over loopback, no mocks.
 */

import {
  API_KEY_HEADER,
  type Envelope,
  PATHS,
  type ServerFileRecord,
  type SingleResult,
} from '@verimark/contract';
import { afterAll, beforeAll } from 'vitest';
import { type TestStore, usePostgres } from './postgres-suite';
import { type RunningService, type StartServiceOptions, startService } from './service';

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

interface BulkStatus {
  status: string;
  download_url: string;
}

interface FileListData {
  files: ServerFileRecord[];
  totalCount: number;
  page: number;
  pageSize: number;
}

/** The body as JSON when it parses, else the text; typed by the caller, asserted by the test. */
async function read<T>(response: Response): Promise<Reply<T>> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

export class Api {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | null,
  ) {}

  withKey(apiKey: string | null): Api {
    return new Api(this.baseUrl, apiKey);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.apiKey === null ? extra : { [API_KEY_HEADER]: this.apiKey, ...extra };
  }

  /** POST with a JSON body (an object) or raw text (a string, sent as-is with `contentType`). */
  async post<T = unknown>(path: string, body: unknown, contentType = 'application/json'): Promise<Reply<T>> {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: this.headers({ 'content-type': contentType }),
      body: raw,
    });
    return read<T>(response);
  }

  async get<T = unknown>(pathAndQuery: string): Promise<Reply<T>> {
    return read<T>(await fetch(this.baseUrl + pathAndQuery, { headers: this.headers() }));
  }

  async upload(
    content: string | Uint8Array<ArrayBuffer> | Blob,
    fields: Record<string, string> = {},
    fileName = 'contacts.csv',
  ): Promise<Reply<Envelope<{ file_id: string }>>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', new Blob([content], { type: 'text/csv' }), fileName);
    const response = await fetch(this.baseUrl + PATHS.bulk, {
      method: 'POST',
      headers: this.headers(),
      body: form,
    });
    return read(response);
  }

  /** Verifies one address and polls until it is completed (within `timeoutMs`). */
  async verifyNow(email: string, mode?: string, timeoutMs = 30_000): Promise<SingleResult> {
    const queued = await this.post<Envelope<{ task_id: string }>>(
      PATHS.single,
      mode ? { email, mode } : { email },
    );
    if (queued.status !== 200)
      throw new Error(`verify ${email}: ${queued.status} ${JSON.stringify(queued.body)}`);
    const taskId = queued.body.data.task_id;
    return waitFor(async () => {
      const status = await this.post<Envelope<SingleResult>>(PATHS.singleStatus, { task_id: taskId });
      return status.body.data?.processing_status === 'completed' ? status.body.data : null;
    }, timeoutMs);
  }

  async fileStatus(fileId: string): Promise<Reply<Envelope<BulkStatus>>> {
    return this.post<Envelope<BulkStatus>>(PATHS.bulkStatus, { file_id: fileId });
  }

  async listFiles(query: string): Promise<Reply<Envelope<FileListData>>> {
    return this.get<Envelope<FileListData>>(`${PATHS.bulkFiles}?${query}`);
  }

  /** Polls a bulk file until it is completed or failed; returns its last status reply. */
  async waitForFile(fileId: string, timeoutMs = 60_000): Promise<BulkStatus> {
    return waitFor(async () => {
      const reply = await this.fileStatus(fileId);
      const state = reply.body.data?.status;
      return state === 'completed' || state === 'failed' ? reply.body.data : null;
    }, timeoutMs);
  }

  /** The file's record from the list endpoint. */
  async fileRecord(fileId: string): Promise<ServerFileRecord | undefined> {
    const list = await this.listFiles('page=1&pageSize=100');
    return list.body.data.files.find((f) => f._id === fileId);
  }
}

/** Polls `probe` until it returns a value other than null; `what` names it in the timeout's error. */
export async function waitFor<T>(
  probe: () => Promise<T | null> | T | null,
  timeoutMs = 30_000,
  everyMs = 50,
  what?: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(what ? `timed out: ${what}` : 'timed out waiting');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What the admin CLI and the service's tests need of a running service. */
interface ServiceLike {
  baseUrl: string;
  admin(args: string[]): Promise<string>;
}

/** A client for a new key created through the admin CLI. */
export async function apiWithNewKey(
  service: ServiceLike,
  credits: number,
  extra: string[] = [],
): Promise<Api> {
  const out = await service.admin(['create-key', '--credits', String(credits), ...extra]);
  return new Api(service.baseUrl, out.trim().split('\n').at(-1)?.trim() ?? '');
}

/** A key's balance, read through `list-keys`. */
export async function balanceOf(service: ServiceLike, api: Api): Promise<number> {
  const list = await service.admin(['list-keys']);
  const line = list.split('\n').find((l) => l.includes(` ${(api.apiKey ?? '').slice(0, 12)}…`));
  const match = /credits=(\d+)/.exec(line ?? '');
  if (!match) throw new Error('key not listed');
  return Number(match[1]);
}

/** The suite's service, from `useService()`: `service` and `api` are there once `beforeAll` has run. */
interface ServiceSuite {
  readonly service: RunningService;
  /** A client with the service's test key (1,000,000 credits). */
  readonly api: Api;
  /** A client for a new key with `credits` (and extra `create-key` arguments, e.g. `--expires`). */
  newKey: (credits: number, extra?: string[]) => Promise<Api>;
  /** A key's balance, read through `list-keys`. */
  balance: (key: Api) => Promise<number>;
}

/**
 * Starts the real service before the suite's tests (`beforeAll`) and stops it after them
 * (`afterAll`); `store: 'postgres'` runs it on a new database of a throwaway Postgres cluster.
 */
export function useService(options?: StartServiceOptions & { store?: TestStore }): ServiceSuite {
  const pg = options?.store === 'postgres' ? usePostgres() : null;
  let started: { service: RunningService; api: Api } | undefined;
  const get = () => {
    if (!started) throw new Error('the service is not started yet: use it inside tests or hooks');
    return started;
  };
  beforeAll(async () => {
    const service = await startService({ ...options, ...(pg ? { databaseUrl: pg.url() } : {}) });
    started = { service, api: new Api(service.baseUrl, service.apiKey) };
  });
  afterAll(() => started?.service.stop());
  return {
    get service() {
      return get().service;
    },
    get api() {
      return get().api;
    },
    newKey: (credits, extra = []) => apiWithNewKey(get().service, credits, extra),
    balance: (key) => balanceOf(get().service, key),
  };
}
