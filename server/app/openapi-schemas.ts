/**
 * Valibot schemas of what the service answers, for the OpenAPI document only (server/app/openapi.ts).
 * Request schemas come from ./validation.ts (what the routes validate with) and the envelopes
 * the extension reads from contract/src/contract.ts; these describe our service's own payloads more
 * precisely than the client needs to (docs/design.md §3).
 */

import { CHECK_NAMES, envelope, FILE_STATES, MODES, REASONS, VERDICTS } from '@verimark/contract';
import * as v from 'valibot';

const nullableBoolean = v.nullable(v.boolean());
const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const ErrorSchema = v.object({
  error: v.pipe(v.number(), v.integer(), v.description('Equal to the HTTP status')),
  message: v.string(),
});

export const CompletedResultSchema = envelope(
  v.object({
    task_id: v.string(),
    processing_status: v.picklist(['pending', 'completed']),
    email: v.optional(v.string()),
    status: v.optional(v.picklist(VERDICTS)),
    reason: v.optional(v.picklist(REASONS)),
    mode: v.optional(v.picklist(MODES)),
    provider: v.optional(v.nullable(v.string())),
    checks: v.optional(v.object(Object.fromEntries(CHECK_NAMES.map((name) => [name, nullableBoolean])))),
    mx_host: v.optional(v.nullable(v.string())),
    suggestion: v.optional(v.nullable(v.string())),
    credits_used: v.optional(v.pipe(v.number(), v.integer())),
    credits_refunded: v.optional(v.pipe(v.number(), v.integer())),
    verified_at: v.optional(timestamp),
  }),
);

export const FileStatusSchema = envelope(
  v.object({
    status: v.picklist(FILE_STATES),
    download_url: v.pipe(v.string(), v.description('Empty until completed; then a signed URL valid 1 hour')),
  }),
);

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const FileListResultSchema = envelope(
  v.object({
    files: v.array(
      v.object({
        _id: v.string(),
        file_name: v.string(),
        state: v.picklist(FILE_STATES),
        type: v.picklist(['api', 'website']),
        service_name: v.string(),
        options: v.object({ credit_usage: count, credit_refund: count }),
        meta_data: v.object({ deliverable: count, undeliverable: count, unknown: count, risky: count }),
        createdAt: timestamp,
        updatedAt: timestamp,
      }),
    ),
    totalCount: count,
    page: count,
    pageSize: count,
  }),
);

export const AccountResultSchema = envelope(
  v.object({
    credits: count,
    expires_at: v.nullable(timestamp),
    label: v.string(),
  }),
);

export const FileDeletedSchema = envelope(v.object({ file_id: v.string() }));

export const HealthSchema = v.object({ status: v.literal('ok') });
