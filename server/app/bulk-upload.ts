/**
 * POST /verify/bulk: the streaming multipart upload — credits taken, the CSV scanned on its thread
 * and stored in batches as it arrives, the 25MB limit, per-key upload cap.
 */
import { DESCRIPTIONS, ERRORS, MAX_UPLOAD_BYTES, PATHS } from '@verimark/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ScanProblem, scanOf } from '../csv/scan';
import { scanThreadReady, ThreadScan } from '../csv/scan-thread';
import { resultHeaderOf } from '../csv/split-upload';
import { newId, PROCESS_OWNER } from '../store/ids';
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
 * Streams the multipart body: the `file` part to the CSV scanner (on its thread), whose batches
 * are stored as they are parsed (never the whole file in memory), text fields into a map. The
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

/** Uploads one key may stream to this process at the same time; one more is answered 429. */
export const UPLOADS_PER_KEY = 2;
/**
 * The Retry-After of that 429, in seconds: a place is free once one of the key's uploads ends,
 * which no one can tell in advance; a few seconds is how long most take.
 */
export const UPLOAD_RETRY_AFTER_S = 5;

/**
 * POST /verify/bulk: takes one credit per address at upload and queues the file's batches. A key
 * without credit, or already streaming UPLOADS_PER_KEY uploads here, is refused before the body
 * is read (402, 429): the rest of it is discarded unread.
 */
export function bulkUploadRoute(app: FastifyInstance, ctx: AppContext): void {
  const streaming = new Map<string, number>();
  // The upload scanner's thread is loaded before the service answers. Should it fail to start,
  // the service still serves the rest; each upload then tries to start it again.
  app.addHook('onReady', async () => {
    await scanThreadReady().catch((err: unknown) =>
      app.log.error({ err }, 'upload scan thread did not start'),
    );
  });
  app.post(PATHS.bulk, async (request) => {
    const key = account(request);
    if (key.credits <= 0) throw new HttpError(402, ERRORS.insufficientCredits);
    const uploads = streaming.get(key.id) ?? 0;
    if (uploads >= UPLOADS_PER_KEY) throw new HttpError(429, ERRORS.rateLimited, UPLOAD_RETRY_AFTER_S);
    streaming.set(key.id, uploads + 1);
    try {
      return await receiveUpload(request, key.id);
    } finally {
      const left = (streaming.get(key.id) ?? 1) - 1;
      if (left > 0) streaming.set(key.id, left);
      else streaming.delete(key.id);
    }
  });

  async function receiveUpload(request: FastifyRequest, keyId: string) {
    if (!request.isMultipart()) throw badRequest();
    const id = newId();
    // The file row, `receiving` (hidden, unclaimable), is inserted with the first block of
    // batches; the blocks are stored as the upload arrives, so only one small transaction is left
    // after its last byte.
    let created: Promise<number> | undefined;
    const receiving = () => {
      created ??= ctx.files.receive({ id, keyId, owner: PROCESS_OWNER });
      return created;
    };
    // Should this fail, the start-up sweep removes the file later (server/app/receiving-cleanup.ts).
    const removeReceiving = async () => {
      const inserted = await created?.then(
        () => true,
        () => false,
      );
      if (!inserted) return;
      await ctx.files
        .discard(id)
        .catch((err: unknown) => request.log.error({ err }, 'could not remove a refused upload'));
    };
    const upload = new ThreadScan(ctx.config.batchRows, async (batches) => {
      await ctx.files.addBatches(id, await receiving(), batches);
    });
    let accepted = false;
    try {
      const received = await receive(request, upload).catch(asClientError);
      const fields = parseBody(UploadFields, received.fields);
      // A failing scanner (or store) stays a server error rather than the client's.
      const scan = scanOf(await upload.counts, fields.emailColumn || null, received.bytes);
      if (typeof scan === 'string') throw new HttpError(400, REFUSALS[scan]);
      const batchesTotal = await upload.stored();
      await receiving();
      // Credits and the file's state in one transaction: the file is accepted whole or not at all.
      const file = await ctx.files.accept(id, {
        fileName: fields.fileName || received.uploadName || 'upload.csv',
        mode: fields.mode,
        emailIndex: scan.emailIndex,
        headerLength: scan.header.length,
        credits: scan.emails,
        resultHeader: resultHeaderOf(scan.header),
        batchesTotal,
      });
      if (!file) throw new HttpError(402, ERRORS.insufficientCredits);
      accepted = true;
      ctx.kickFiles();
      return ok(DESCRIPTIONS.queued, { file_id: id });
    } finally {
      // Refused, cut off or failed: what was stored of it goes (once no store runs any more).
      await upload.discard();
      if (!accepted) await removeReceiving();
    }
  }
}
