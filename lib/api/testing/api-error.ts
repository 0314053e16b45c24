/** For tests: the ApiError a promise rejects with (fails when it resolves or rejects otherwise). */
import { ApiError } from '../errors';

export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}
