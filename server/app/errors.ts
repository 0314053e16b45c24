/**
 * The service's error answers (docs/design.md §3 "Errors"): every failure as `{error, message}`
 * with `error` = the HTTP status, and every 429 with `Retry-After`.
 */
import { ERRORS } from '@verimark/contract';
import type { FastifyError, FastifyInstance } from 'fastify';

/**
 * Seconds a 429 asks the client to wait when the refusal itself cannot say how long (the limits
 * that count per window set their own: the rest of the window).
 */
export const DEFAULT_RETRY_AFTER_S = 10;

/** An error answered as `{error, message}` with `error` = the HTTP status (docs/design.md §3). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** For a 429: the Retry-After to send, in seconds (default DEFAULT_RETRY_AFTER_S). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

export const badRequest = () => new HttpError(400, ERRORS.invalidBody);

/**
 * Maps every failure to the contract's error body: our own HttpErrors as they are, the rate
 * limiter's to 429, the multipart file limit to 413, any other client error Fastify raises
 * (bad JSON, wrong content type, body too large, broken multipart) to 400 `Invalid request
 * body`; anything else is a logged 500. No 429 leaves without `Retry-After`: one that has none
 * yet (from an HttpError, or any other path) gets the error's own or DEFAULT_RETRY_AFTER_S.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 429 && !reply.hasHeader('retry-after'))
      reply.header('retry-after', String(DEFAULT_RETRY_AFTER_S));
    return payload;
  });

  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    let status: number;
    let message: string;
    if (err instanceof HttpError) {
      status = err.statusCode;
      message = err.message;
      if (status === 429 && err.retryAfterS !== undefined && !reply.hasHeader('retry-after'))
        reply.header('retry-after', String(err.retryAfterS));
    } else if (err.statusCode === 429) {
      status = 429;
      message = ERRORS.rateLimited;
    } else if ('code' in err && err.code === 'FST_REQ_FILE_TOO_LARGE') {
      status = 413;
      message = ERRORS.tooLarge;
    } else if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      request.log.info({ code: 'code' in err ? err.code : undefined, msg: err.message }, 'bad request');
      status = 400;
      message = ERRORS.invalidBody;
    } else {
      request.log.error({ err }, 'request failed');
      status = 500;
      message = 'Internal server error';
    }
    return reply.code(status).send({ error: status, message });
  });

  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 404, message: 'Not found' }));
}
