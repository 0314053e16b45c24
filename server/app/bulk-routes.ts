/**
 * The bulk routes besides the upload: POST /verify/bulk/status (with a fresh signed download URL)
 * and GET /verify/bulk/files (paged, searched).
 */
import { DESCRIPTIONS, ERRORS, PATHS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { serviceUrl } from '../config';
import { signDownloadUrl } from '../signing';
import { toFileRecord } from '../store/store';
import { account } from './auth';
import type { AppContext } from './context';
import { ok } from './envelope';
import { HttpError } from './errors';
import { FileBody, ListQuery, parseBody, parseQuery } from './validation';

/**
 * The origin download URLs are built on: PUBLIC_BASE_URL, else the configured HOST and the
 * port listened on. Never the request's Host header, which any client can forge.
 */
function baseUrl(ctx: AppContext, app: FastifyInstance): string {
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : ctx.config.port;
  return serviceUrl(ctx.config, port);
}

/** POST /verify/bulk/status and GET /verify/bulk/files. */
export function bulkRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(PATHS.bulkStatus, async (request) => {
    const key = account(request);
    const body = parseBody(FileBody, request.body);
    const file = await ctx.files.get(key.id, body.file_id);
    if (!file) throw new HttpError(404, ERRORS.fileNotFound);
    const download_url =
      file.state === 'completed' ? signDownloadUrl(baseUrl(ctx, app), ctx.signingSecret, file.id) : '';
    return ok(DESCRIPTIONS.bulkStatus, { status: file.state, download_url });
  });

  app.get(PATHS.bulkFiles, async (request) => {
    const key = account(request);
    const query = parseQuery(ListQuery, request.query);
    const { rows, total } = await ctx.files.list(key.id, query.page, query.pageSize, query.search);
    return ok(DESCRIPTIONS.bulkFiles, {
      files: rows.map(toFileRecord),
      totalCount: total,
      page: query.page,
      pageSize: query.pageSize,
    });
  });
}
