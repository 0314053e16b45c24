/**
 * One HTTP exchange with the service: fetch, map failures to typed ApiErrors, validate the body.
 * No retries here (lib/api/retry.ts decides what may be repeated).
 */

import { API_KEY_HEADER, ErrorBodySchema } from '@verimark/contract';
import * as v from 'valibot';
import { t } from '@/lib/shared/i18n';
import type { ApiErrorKind } from '@/lib/shared/views';
import { ApiError } from './errors';

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  /** The only origin the key may be sent to; a request elsewhere is refused before it leaves. */
  keyOrigin?: string;
  /** Per-request timeout; defaults to 30 s (uploads get longer, see client.ts). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: FormData;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function buildUrl(baseUrl: string, path: string, query?: HttpRequest['query']): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

function kindOf(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'invalid_key';
  if (status === 402) return 'payment_required';
  if (status === 404) return 'not_found';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'bad_request';
}

async function errorFrom(res: Response): Promise<ApiError> {
  let message = res.statusText || `HTTP ${res.status}`;
  try {
    const parsed = v.safeParse(ErrorBodySchema, await res.json());
    if (parsed.success) message = parsed.output.message;
  } catch {
    // Not JSON: keep the status text.
  }
  const retryAfter = res.status === 429 ? parseRetryAfter(res.headers.get('retry-after')) : null;
  return new ApiError(kindOf(res.status), message, res.status, retryAfter);
}

/** Sends one request and returns the validated body of a 2xx response. */
export async function send<S extends v.GenericSchema>(
  config: HttpConfig,
  request: HttpRequest,
  schema: S,
): Promise<v.InferOutput<S>> {
  const headers: Record<string, string> = { [API_KEY_HEADER]: config.apiKey, accept: 'application/json' };
  let body: BodyInit | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    body = request.form;
  }
  const doFetch = config.fetch ?? globalThis.fetch.bind(globalThis);
  const url = buildUrl(config.baseUrl, request.path, request.query);
  if (config.keyOrigin !== undefined && new URL(url).origin !== config.keyOrigin)
    throw new ApiError(
      'not_configured',
      'The API key was saved for another service: enter it in the options page',
    );
  let res: Response;
  try {
    res = await doFetch(url, {
      method: request.method,
      headers,
      body,
      // A followed redirect would carry the key header to wherever it points.
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (err) {
    // Some engines quote a header value they cannot send: the key must not travel in the message.
    const text = err instanceof Error ? err.message : String(err);
    const reason = config.apiKey === '' ? text : text.replaceAll(config.apiKey, '…');
    throw new ApiError('network', t('api_unreachable', reason));
  }
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    throw new ApiError('server', t('api_redirected'), res.status);
  }
  if (!res.ok) throw await errorFrom(res);
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ApiError('server', t('api_not_json'), res.status);
  }
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue ? v.getDotPath(issue) : null;
    throw new ApiError('server', where ? t('api_unexpected_at', where) : t('api_unexpected'), res.status);
  }
  return parsed.output;
}
