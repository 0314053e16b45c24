/**
 * What the service's logs may hold: download URLs without their signature, no API key, and pino's
 * options to that end.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Logs never hold a download signature or an API key (docs/design.md §4): a `/downloads/…` URL
 * is logged without its query (expires and signature), and `x-api-key` is redacted should a
 * request's headers ever be logged.
 */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || !url.startsWith('/downloads/')) return url;
  return `${url.slice(0, at)}?[redacted]`;
}

/** What a request's log lines say about it: Fastify's default fields, the URL redacted. */
function requestFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The pino options of the service's logger. */
export function loggerOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    serializers: { req: requestFields },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]'], censor: '[redacted]' },
  };
}
