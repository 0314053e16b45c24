/**
 * GET /downloads/<file_id>.csv: a completed file's results through a signed, expiring URL, without
 * an API key.
 */
import { createReadStream, existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { ERRORS } from '@verimark/contract';
import type { FastifyInstance } from 'fastify';
import { verifyDownload } from '../signing';
import type { AppContext } from './context';
import { HttpError } from './errors';

interface DownloadRequest {
  Params: { name: string };
  Querystring: { expires?: unknown; signature?: unknown };
}

/** A safe `filename` for Content-Disposition: the upload's name, ASCII only, ending in .csv. */
function attachmentName(fileName: string): string {
  const base =
    fileName
      .replace(/\.csv$/i, '')
      .replace(/[^\w .-]+/g, '_')
      .slice(0, 100) || 'results';
  return `${base}-results.csv`;
}

/** GET /downloads/<file_id>.csv?expires&signature: no API key, 403 on a bad or expired signature. */
export function downloadRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<DownloadRequest>('/downloads/:name', async (request, reply) => {
    const match = /^([0-9a-f]{24})\.csv$/.exec(request.params.name);
    const { expires, signature } = request.query;
    const fileId = match?.[1];
    if (
      !fileId ||
      typeof expires !== 'string' ||
      typeof signature !== 'string' ||
      !verifyDownload(ctx.signingSecret, fileId, expires, signature)
    ) {
      throw new HttpError(403, 'Invalid or expired download link');
    }
    const file = await ctx.files.getById(fileId);
    if (file?.state !== 'completed') throw new HttpError(404, ERRORS.fileNotFound);
    // A revoked key's links die with it, however long their signature would still hold.
    const owner = await ctx.keys.get(file.key_id);
    if (!owner || owner.revoked_at !== null) throw new HttpError(403, 'Invalid or expired download link');
    // Files completed before results moved into the database have theirs in DATA_DIR/results.
    const legacyPath = ctx.paths.result(fileId);
    const legacy = file.result_header === '';
    if (legacy && !existsSync(legacyPath)) throw new HttpError(404, ERRORS.fileNotFound);
    const body = legacy ? createReadStream(legacyPath) : Readable.from(ctx.files.resultChunks(fileId));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${attachmentName(file.file_name)}"`)
      .header('cache-control', 'private, no-store')
      .send(body);
  });
}
