/**
 * Typed errors of the API client. They cross the message boundary (background → popup /
 * content script) as an Error whose message is `[kind] text`; `fromMessageError` reads that
 * back, so every context shows the same kinds.
 */
const KIND_LIST = [
  'invalid_key', // 401
  'payment_required', // 402 (subscription or insufficient credits)
  'rate_limited', // 429, with retryAfterSeconds
  'bad_request', // 400, with the service's message
  'not_found', // 404
  'too_large', // 413
  'network', // fetch failed: offline, DNS, refused, CORS
  'server', // 5xx or a response that does not match the contract
  'not_configured', // no service URL or API key set
] as const;
export type ApiErrorKind = (typeof KIND_LIST)[number];
const KINDS: ReadonlySet<string> = new Set(KIND_LIST);

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

  /** The form used across runtime messages. */
  toMessage(): string {
    const retry = this.retryAfterSeconds === null ? '' : `{retry=${this.retryAfterSeconds}}`;
    return `[${this.kind}]${retry} ${this.message}`;
  }
}

/** Reads an error received from a runtime message (or anything thrown) back into an ApiError. */
export function fromMessageError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const text = err instanceof Error ? err.message : String(err);
  const match = /^\[([a-z_]+)\](?:\{retry=(\d+)\})? ([\s\S]*)$/.exec(text);
  if (match?.[1] && KINDS.has(match[1])) {
    const retry = match[2] === undefined ? null : Number(match[2]);
    return new ApiError(match[1] as ApiErrorKind, match[3] ?? '', null, retry);
  }
  return new ApiError('server', text);
}
