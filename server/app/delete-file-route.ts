/**
 * DELETE /verify/bulk/files/{file_id}: a key removes one of its files, rows and results, leaving
 * nothing readable on disk.
 */
import { DESCRIPTIONS, ERRORS, PATHS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { deleteFile } from '../store/retention';
import { account, authenticate } from './auth';
import type { AppContext } from './context';
import { ok } from './envelope';
import { HttpError } from './errors';
import { FileBody, parseBody } from './validation';

/** The route of PATHS.bulkFile in Fastify's syntax (`:file_id`). */
const ROUTE = PATHS.bulkFile.replace('{file_id}', ':file_id');

/**
 * DELETE /verify/bulk/files/{file_id} (docs/design.md §3 "Beyond the contract"): removes one of
 * the key's files with its uploaded rows and results at once. Another key's file, or none, is
 * 404 `File not found` (no existence leak). An expired key may still delete its own data.
 */
export function deleteFileRoute(app: FastifyInstance, ctx: AppContext): void {
  app.delete(ROUTE, { onRequest: authenticate(ctx.keys, { allowExpired: true }) }, async (request) => {
    const key = account(request);
    const { file_id } = parseBody(FileBody, request.params);
    if (!(await deleteFile(ctx.store, ctx.config.dataDir, file_id, key.id)))
      throw new HttpError(404, ERRORS.fileNotFound);
    ctx.stopFile(file_id);
    return ok(DESCRIPTIONS.fileDeleted, { file_id });
  });
}
