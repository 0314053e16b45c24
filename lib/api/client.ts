/**
 * The typed client of the verification service (docs/api-spec.md §4): all five endpoints, responses
 * validated with the contract's schemas, failures as ApiError. `verifySingle` and `verifyBulk`
 * spend credits and are sent exactly once; status and list calls retry (lib/api/retry.ts).
 */
import {
  type Account,
  AccountSchema,
  type BulkStatusData,
  BulkStatusSchema,
  type FileList,
  FileListSchema,
  type Mode,
  PATHS,
  QueuedBulkSchema,
  QueuedSingleSchema,
  type SingleStatusData,
  SingleStatusSchema,
} from '@verimark/contract';
import { ApiError } from './errors';
import { type HttpConfig, send } from './http';
import { type RetryOptions, withRetry } from './retry';

interface ApiClientConfig extends HttpConfig {
  retry?: RetryOptions;
}

interface BulkUpload {
  file: Blob;
  fileName: string;
  /** Omitted → the service looks for `Email`. */
  emailColumn?: string;
  mode?: Mode;
}

export interface ListQuery {
  page: number;
  pageSize: number;
  search?: string;
}

const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export function createApiClient(config: ApiClientConfig) {
  const retried = <T>(call: () => Promise<T>) => withRetry(call, config.retry);
  return {
    /** Queues one address. Spends a credit: never retried. */
    async verifySingle(email: string, mode: Mode): Promise<{ taskId: string }> {
      const body = await send(
        config,
        { method: 'POST', path: PATHS.single, json: { email, mode } },
        QueuedSingleSchema,
      );
      return { taskId: body.data.task_id };
    },

    async singleStatus(taskId: string): Promise<SingleStatusData> {
      const request = { method: 'POST', path: PATHS.singleStatus, json: { task_id: taskId } } as const;
      return (await retried(() => send(config, request, SingleStatusSchema))).data;
    },

    /** Uploads a CSV. Spends credits: never retried. */
    async verifyBulk(upload: BulkUpload): Promise<{ fileId: string }> {
      const form = new FormData();
      form.append('file', upload.file, upload.fileName);
      form.append('fileName', upload.fileName);
      if (upload.emailColumn) form.append('emailColumn', upload.emailColumn);
      if (upload.mode) form.append('mode', upload.mode);
      const request = { method: 'POST', path: PATHS.bulk, form, timeoutMs: UPLOAD_TIMEOUT_MS } as const;
      const body = await send(config, request, QueuedBulkSchema);
      return { fileId: body.data.file_id };
    },

    async bulkStatus(fileId: string): Promise<BulkStatusData> {
      const request = { method: 'POST', path: PATHS.bulkStatus, json: { file_id: fileId } } as const;
      return (await retried(() => send(config, request, BulkStatusSchema))).data;
    },

    async listFiles(query: ListQuery): Promise<FileList> {
      const request = {
        method: 'GET',
        path: PATHS.bulkFiles,
        query: { page: query.page, pageSize: query.pageSize, search: query.search || undefined },
      } as const;
      return (await retried(() => send(config, request, FileListSchema))).data;
    },

    /**
     * The key's balance (`GET /account`, our service only, docs/design.md §3); null from a
     * service without the endpoint (404), such as the commercial one.
     */
    async getAccount(): Promise<Account | null> {
      try {
        return (await retried(() => send(config, { method: 'GET', path: PATHS.account }, AccountSchema)))
          .data;
      } catch (err) {
        if (err instanceof ApiError && err.kind === 'not_found') return null;
        throw err;
      }
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
