/**
 * Typed errors of the API client. They cross the message boundary (background → popup /
 * content script) as they are: @webext-core/messaging copies a thrown Error's own fields
 * (`kind`, `status`, `retryAfterSeconds`) into the error the sender receives, and
 * `fromMessageError` rebuilds the ApiError from them, so every context shows the same kinds.
 */
import { API_ERROR_KINDS, type ApiErrorKind } from '@/lib/shared/views';
import { type ApiErrorFields, apiErrorFields } from './error-fields';

const KINDS: ReadonlySet<string> = new Set(API_ERROR_KINDS);

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** ApiError fields of a known kind. */
function hasApiErrorFields(value: unknown): value is ApiErrorFields & { kind: ApiErrorKind } {
  const fields = apiErrorFields(value);
  return fields !== null && KINDS.has(fields.kind);
}

const numberOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Reads an error received from a runtime message (or anything thrown) back into an ApiError. */
export function fromMessageError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (hasApiErrorFields(err)) {
    return new ApiError(err.kind, err.message, numberOrNull(err.status), numberOrNull(err.retryAfterSeconds));
  }
  return new ApiError('server', err instanceof Error ? err.message : String(err));
}
