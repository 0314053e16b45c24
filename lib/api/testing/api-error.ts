/** For tests: the ApiError a promise rejects with (fails when it resolves or rejects otherwise). */
import { ApiError } from '@/lib/api/errors';

export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}

/**
 * What a message sender receives when the background throws `err`: a plain Error carrying the
 * ApiError's own fields, as @webext-core/messaging rebuilds it (lib/api/errors.test.ts checks
 * the real library does so).
 */
export function asReceived(err: ApiError): Error {
  return Object.assign(new Error(err.message), { ...err });
}
