/**
 * The typed client of the verification service (docs/api-spec.md §4): all five endpoints (and, beyond
 * them, `GET /account` and `DELETE /verify/bulk/files/{file_id}` where a service answers them), responses
 * validated with the contract's schemas, failures as ApiError. `verifySingle` and `verifyBulk`
 * spend credits and are sent exactly once; status and list calls retry (lib/api/retry.ts).
 */
import {
  type Account,
  AccountSchema,
  type BulkStatusData,
  BulkStatusSchema,
  ERRORS,
  envelope,
  type FileList,
  FileListSchema,
  type Mode,
  PATHS,
  QueuedBulkSchema,
  QueuedSingleSchema,
  type SingleStatusData,
  SingleStatusSchema,
} from '@verimark/contract';
import * as v from 'valibot';
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

/** `DELETE` of a file: what the service's answer says (docs/design.md §3 "Beyond the contract"). */
export type DeleteOutcome = 'deleted' | 'gone' | 'unsupported';
const DeletedSchema = envelope(v.looseObject({}));

/**
 * A refusal that means "no such route" rather than "no such file": 405/501, or a 404 whose body
 * is not the contract's `File not found` (a server's own "Cannot DELETE …" page, for one).
 */
function routeMissing(err: ApiError): boolean {
  if (err.status === 405 || err.status === 501) return true;
  return err.kind === 'not_found' && err.message !== ERRORS.fileNotFound;
}

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

    /**
     * Deletes one of the key's files (our service only): `gone` when the service has no such file
     * under this key (404 `File not found`: already deleted, or never this key's), `unsupported`
     * when the service has no such route (the commercial one). Idempotent, so retried.
     */
    async deleteFile(fileId: string): Promise<DeleteOutcome> {
      const path = PATHS.bulkFile.replace('{file_id}', encodeURIComponent(fileId));
      try {
        await retried(() => send(config, { method: 'DELETE', path }, DeletedSchema));
        return 'deleted';
      } catch (err) {
        if (err instanceof ApiError && routeMissing(err)) return 'unsupported';
        if (err instanceof ApiError && err.kind === 'not_found') return 'gone';
        throw err;
      }
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
