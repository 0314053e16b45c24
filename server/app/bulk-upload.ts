import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DESCRIPTIONS, ERRORS, MAX_UPLOAD_BYTES, PATHS } from '../../lib/api/contract';
import { type ScanProblem, scanOf } from '../csv/scan';
import { scanThreadReady, ThreadScan } from '../csv/scan-thread';
import { resultHeaderOf } from '../jobs/split-upload';
import { newId } from '../store/ids';
import { account } from './auth';
import type { AppContext } from './context';
import { ok } from './envelope';
import { badRequest, HttpError } from './errors';
import { parseBody, UploadFields } from './validation';

const REFUSALS: Record<ScanProblem, string> = {
  no_column: ERRORS.missingEmailColumn,
  no_addresses: ERRORS.noAddresses,
  too_wide: ERRORS.tooManyColumns,
  too_short: ERRORS.rowsTooShort,
  too_long: ERRORS.rowTooLong,
};

interface Received {
  fields: Record<string, string>;
  uploadName: string;
  /** Bytes of the `file` part. */
  bytes: number;
}

/**
 * Streams the multipart body: the `file` part to the CSV scanner (on its thread), whose data rows
 * go to the batch spool as they are parsed (never the whole file in memory), text fields into a
 * map. The
 * 25MB limit is enforced while streaming: busboy stops past it and skips the rest, and the
 * request is answered 413 once the body has been read.
 */
async function receive(request: FastifyRequest, scan: ThreadScan): Promise<Received> {
  const parts = request.parts({
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
  });
  const fields: Record<string, string> = {};
  let uploadName: string | null = null;
  let bytes: number | null = null;
  let problem: HttpError | null = null;
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        problem ??= badRequest();
        continue;
      }
      bytes = await scan.receive(part.file);
      if (part.file.truncated) problem = new HttpError(413, ERRORS.tooLarge);
      uploadName = part.filename;
    } else if (part.fieldnameTruncated || part.valueTruncated || typeof part.value !== 'string') {
      problem ??= badRequest();
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  if (problem) throw problem;
  if (uploadName === null || bytes === null) throw badRequest();
  return { fields, uploadName, bytes };
}

/**
 * A broken multipart body (no boundary, cut short) makes busboy throw plain Errors: those are
 * the client's, so 400. System errors (they carry a `code` such as ENOSPC) stay server errors.
 */
function asClientError(err: unknown): never {
  if (err instanceof HttpError) throw err;
  if (err instanceof Error && !('code' in err) && !('statusCode' in err)) throw badRequest();
  throw err;
}

/** POST /verify/bulk: takes one credit per address at upload and queues the file's batches. */
export function bulkUploadRoute(app: FastifyInstance, ctx: AppContext): void {
  // The upload scanner's thread is loaded before the service answers. Should it fail to start,
  // the service still serves the rest; each upload then tries to start it again.
  app.addHook('onReady', async () => {
    await scanThreadReady().catch((err: unknown) =>
      app.log.error({ err }, 'upload scan thread did not start'),
    );
  });
  app.post(PATHS.bulk, async (request) => {
    const key = account(request);
    if (!request.isMultipart()) throw badRequest();
    const id = newId();
    const upload = new ThreadScan(ctx.paths.upload(id), ctx.config.batchRows);
    try {
      const received = await receive(request, upload).catch(asClientError);
      const fields = parseBody(UploadFields, received.fields);
      // A failing scanner (or spool) stays a server error rather than the client's.
      const scan = scanOf(await upload.counts, fields.emailColumn || null, received.bytes);
      if (typeof scan === 'string') throw new HttpError(400, REFUSALS[scan]);
      // Credits and every batch in one transaction: the file is accepted whole or not at all.
      const batches = await upload.batches();
      const file = await ctx.files.create(
        {
          id,
          keyId: key.id,
          fileName: fields.fileName || received.uploadName || 'upload.csv',
          mode: fields.mode,
          emailIndex: scan.emailIndex,
          headerLength: scan.header.length,
          credits: scan.emails,
          resultHeader: resultHeaderOf(scan.header),
        },
        batches,
      );
      if (!file) throw new HttpError(402, ERRORS.insufficientCredits);
      ctx.kickFiles();
      return ok(DESCRIPTIONS.queued, { file_id: id });
    } finally {
      // Its rows are in the database now (or it was refused): the spool is not needed.
      await upload.discard();
    }
  });
}
