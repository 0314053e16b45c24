/**
 * The fields an ApiError carries across a runtime message: @webext-core/messaging copies a thrown
 * Error's own fields into the error the sender receives. Apart from errors.ts so the content script
 * can tell the background's errors from a failed message without the client's error class.
 */
export interface ApiErrorFields {
  name: 'ApiError';
  kind: string;
  message: string;
  status?: unknown;
  retryAfterSeconds?: unknown;
}

/** The ApiError fields of `value` (an ApiError, also after crossing a runtime message), or null. */
export function apiErrorFields(value: unknown): ApiErrorFields | null {
  if (typeof value !== 'object' || value === null) return null;
  const fields = value as Record<string, unknown>;
  return fields.name === 'ApiError' && typeof fields.kind === 'string' && typeof fields.message === 'string'
    ? (fields as unknown as ApiErrorFields)
    : null;
}
