/**
 * API key authentication (the `x-api-key` header): the onRequest hook that answers 401/402 and
 * hands the routes the key's account.
 */
import { API_KEY_HEADER, ERRORS } from '@verimark/contract';
import type { FastifyRequest } from 'fastify';
import { isExpired, type KeyRecord, type KeyStore } from '../store/store';
import { HttpError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    account: KeyRecord | null;
  }
}

/** The API key presented in `x-api-key`, if exactly one was sent. */
export function presentedKey(request: FastifyRequest): string | null {
  const value = request.headers[API_KEY_HEADER];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * onRequest hook: 401 for a missing, unknown or revoked key, 402 for an expired subscription
 * (unless `allowExpired`: an expired account may still look at itself, docs/design.md §3).
 */
export function authenticate(keys: KeyStore, opts: { allowExpired?: boolean } = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    const key = presentedKey(request);
    const record = key ? await keys.findByKey(key) : null;
    if (!record) throw new HttpError(401, ERRORS.invalidKey);
    if (!opts.allowExpired && isExpired(record)) throw new HttpError(402, ERRORS.paymentRequired);
    request.account = record;
  };
}

/** The authenticated key of a request that passed `authenticate`. */
export function account(request: FastifyRequest): KeyRecord {
  if (!request.account) throw new HttpError(401, ERRORS.invalidKey);
  return request.account;
}
