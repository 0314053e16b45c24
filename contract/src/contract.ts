/**
 * The wire contract of the verification service (docs/api-spec.md), defined once.
 * The extension's API client validates responses with these schemas; the reference service
 * (server/) builds its responses from the same constants and types.
 *
 * Schemas are deliberately loose about fields the spec does not show (valibot `looseObject`
 * keeps unknown keys), so the client also works with the commercial service.
 */
import * as v from 'valibot';

export const MODES = ['catch_all', 'non_catch_all'] as const;
export type Mode = (typeof MODES)[number];
export const DEFAULT_MODE: Mode = 'catch_all';

export const VERDICTS = ['deliverable', 'undeliverable', 'risky', 'unknown'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const REASONS = [
  'accepted_email',
  'rejected_email',
  'invalid_syntax',
  'invalid_domain',
  'no_mx',
  'catch_all',
  'disposable',
  'mailbox_full',
  'greylisted',
  'smtp_timeout',
  'smtp_unreachable',
  'smtp_error',
  'blocked',
  'accept_all_provider',
  'dns_unusable',
] as const;
export type Reason = (typeof REASONS)[number];

export const FILE_STATES = ['pending', 'processing', 'completed', 'failed'] as const;
export type FileState = (typeof FILE_STATES)[number];

export const PATHS = {
  single: '/verify/single',
  singleStatus: '/verify/single/status',
  bulk: '/verify/bulk',
  bulkStatus: '/verify/bulk/status',
  bulkFiles: '/verify/bulk/files',
  /** Beyond the spec, our service only (docs/design.md §3): the key's balance. */
  account: '/account',
  /**
   * Beyond the spec, our service only (docs/design.md §3): `DELETE` removes one of the key's
   * files with its rows and results (`{file_id}` is the file's id).
   */
  bulkFile: '/verify/bulk/files/{file_id}',
} as const;

export const API_KEY_HEADER = 'x-api-key';
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Widest header the service takes: rows are padded to the header's width (docs/design.md §3). */
export const MAX_COLUMNS = 1000;
/**
 * Longest row (one CSV record, quotes and quoted line breaks included) the service takes, in
 * bytes: no contact list has rows near it, and parsing one stays within a few tens of ms
 * (docs/design.md §3).
 */
export const MAX_ROW_BYTES = 1024 * 1024;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_EMAIL_COLUMN = 'Email';

/** `message.description` of each successful operation (spec §4). */
export const DESCRIPTIONS = {
  queued: 'Email added to queue successfully',
  singleStatus: 'Email task status fetched successfully',
  bulkStatus: 'File status fetched successfully',
  bulkFiles: 'Bulk files fetched successfully',
  account: 'Account fetched successfully',
  fileDeleted: 'File deleted successfully',
} as const;

/** Error message texts (spec §7, docs/design.md §3). */
export const ERRORS = {
  invalidBody: 'Invalid request body',
  invalidQuery: 'Invalid query parameters',
  missingEmailColumn: 'Email column header is missing from the file',
  invalidKey: 'Invalid API key',
  paymentRequired: 'Subscription expired or payment required',
  insufficientCredits: 'Insufficient credits',
  taskNotFound: 'Task not found',
  fileNotFound: 'File not found',
  tooLarge: 'File exceeds the 25MB limit',
  noAddresses: 'The email column has no addresses',
  tooManyColumns: 'The file has more than 1,000 columns',
  rowTooLong: 'A row is longer than 1 MiB',
  rowsTooShort: 'Too many missing cells: rows are far shorter than the header',
  rateLimited: 'Rate limit exceeded',
} as const;

/** Columns the results CSV appends to the original ones, in this order (docs/design.md §3). */
export const RESULT_COLUMNS = [
  'verification_status',
  'verification_reason',
  'is_catch_all',
  'is_disposable',
  'is_role_account',
  'is_free_provider',
  'mx_host',
  'suggestion',
] as const;

// ---------------------------------------------------------------------------------------------
// Schemas

export const ErrorBodySchema = v.looseObject({
  error: v.number(),
  message: v.string(),
});

const MessageSchema = v.looseObject({
  status: v.string(),
  statusCode: v.number(),
  description: v.string(),
});

/** The envelope of every 200 response (spec §2.1) around a payload schema. */
export function envelope<T extends v.GenericSchema>(data: T) {
  return v.looseObject({ message: MessageSchema, data });
}
export interface Envelope<T> {
  message: { status: 'success'; statusCode: 200; description: string };
  data: T;
}

export const QueuedSingleSchema = envelope(v.looseObject({ task_id: v.string() }));
export const QueuedBulkSchema = envelope(v.looseObject({ file_id: v.string() }));

/** The checks a completed result reports (docs/design.md §3), in display order. */
export const CHECK_NAMES = [
  'syntax',
  'mx_found',
  'smtp_connected',
  'catch_all',
  'disposable',
  'role_account',
  'free_provider',
] as const;
/** Each check's outcome; null where it was not tested. */
export type Checks = Record<(typeof CHECK_NAMES)[number], boolean | null>;

/** A checks object where nothing was tested. */
export function untestedChecks(): Checks {
  return Object.fromEntries(CHECK_NAMES.map((name) => [name, null])) as Checks;
}

/**
 * `data` of /verify/single/status. Only `processing_status` is relied upon; the completed
 * result's fields are unshown in the spec, so everything else is optional and read
 * defensively by lib/api/verdict.ts.
 */
export const SingleStatusSchema = envelope(
  v.looseObject({
    task_id: v.optional(v.string()),
    processing_status: v.string(),
  }),
);
export type SingleStatusData = v.InferOutput<typeof SingleStatusSchema>['data'];

/** The completed single result as the reference service sends it (docs/design.md §3). */
export interface SingleResult {
  task_id: string;
  processing_status: 'completed';
  email: string;
  status: Verdict;
  reason: Reason;
  mode: Mode;
  /** The mail provider recognised by MX host name (`google`, `microsoft`, `yahoo`, …), or null. */
  provider: string | null;
  checks: Checks;
  mx_host: string | null;
  suggestion: string | null;
  credits_used: number;
  credits_refunded: number;
  verified_at: string;
}

export const BulkStatusSchema = envelope(
  v.looseObject({
    status: v.string(),
    /** Empty while not ready; a service that sends null (or nothing) then is read the same way. */
    download_url: v.fallback(v.string(), ''),
  }),
);
export type BulkStatusData = v.InferOutput<typeof BulkStatusSchema>['data'];

/** Counts and names that are missing, null or of another type read as 0 / '' (one odd record must not break the list). */
const count = v.fallback(v.number(), 0);
const text = v.fallback(v.string(), '');
const noCredits = () => ({ credit_usage: 0, credit_refund: 0 });
const noCounts = () => ({ deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 });

const FileRecordSchema = v.looseObject({
  _id: v.string(),
  file_name: text,
  state: text,
  type: v.optional(v.string()),
  service_name: v.optional(v.string()),
  options: v.fallback(v.looseObject({ credit_usage: count, credit_refund: count }), noCredits),
  meta_data: v.fallback(
    v.looseObject({ deliverable: count, undeliverable: count, unknown: count, risky: count }),
    noCounts,
  ),
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
});
export type FileRecord = v.InferOutput<typeof FileRecordSchema>;

export const FileListSchema = envelope(
  v.looseObject({
    files: v.array(FileRecordSchema),
    totalCount: v.number(),
    page: v.number(),
    pageSize: v.number(),
  }),
);
export type FileList = v.InferOutput<typeof FileListSchema>['data'];

/**
 * `GET /account` (our service only, docs/design.md §3): the key's balance. A service without
 * the endpoint answers 404, which the client reads as "not told".
 */
export const AccountSchema = envelope(
  v.looseObject({
    credits: v.number(),
    /** ISO 8601, or null when the subscription does not expire. */
    expires_at: v.fallback(v.nullable(v.string()), null),
    label: v.fallback(v.string(), ''),
  }),
);
export type Account = v.InferOutput<typeof AccountSchema>['data'];

/** The file record exactly as the reference service writes it (spec §2.4). */
export interface ServerFileRecord {
  _id: string;
  file_name: string;
  state: FileState;
  type: 'api' | 'website';
  service_name: string;
  options: { credit_usage: number; credit_refund: number };
  meta_data: { deliverable: number; undeliverable: number; unknown: number; risky: number };
  createdAt: string;
  updatedAt: string;
}
