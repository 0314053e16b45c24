/** The paths of the OpenAPI document (./openapi.ts): every endpoint, its inputs and answers. */

import { DESCRIPTIONS, ERRORS, MAX_UPLOAD_BYTES, PATHS } from '@verimark/contract';
import type * as v from 'valibot';
import { integerFromDigits, type Json, jsonSchema } from './json-schema';
import { FileBody, ListQuery, SingleBody, TaskBody, UploadFields } from './validation';

/** Paths of the endpoints beyond the spec that need no key. */
export const OPS_PATHS = {
  health: '/healthz',
  metrics: '/metrics',
  openapi: '/openapi.json',
  docs: '/docs',
} as const;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

/** Each error status an endpoint may answer, with the messages it uses. */
const ERROR_TEXTS: Record<number, string> = {
  400: ERRORS.invalidBody,
  401: ERRORS.invalidKey,
  402: `${ERRORS.paymentRequired} / ${ERRORS.insufficientCredits}`,
  403: 'Invalid or expired download link',
  404: `${ERRORS.taskNotFound} / ${ERRORS.fileNotFound}`,
  413: ERRORS.tooLarge,
  429: `${ERRORS.rateLimited} (with Retry-After)`,
};

/** Error answers by status; a `[status, text]` pair replaces the usual text. */
function errors(...statuses: (number | [number, string])[]): Json {
  return Object.fromEntries(
    statuses.map((entry) => {
      const [status, text] = typeof entry === 'number' ? [entry, ERROR_TEXTS[entry]] : entry;
      return [String(status), { description: text, content: json(ref('Error')) }];
    }),
  );
}

/** What a refused upload is told, besides a malformed request. */
const UPLOAD_400 = [
  ERRORS.invalidBody,
  ERRORS.missingEmailColumn,
  ERRORS.noAddresses,
  ERRORS.tooManyColumns,
  ERRORS.rowsTooShort,
  ERRORS.rowTooLong,
].join(' / ');

interface Operation {
  summary: string;
  description?: string;
  /** false: no API key (the ops endpoints and signed downloads). */
  keyed?: boolean;
  parameters?: Json[];
  requestBody?: Json;
  responses: Json;
}

function operation(op: Operation): Json {
  const { keyed = true, ...rest } = op;
  return { ...rest, ...(keyed ? {} : { security: [] }) };
}

function ok(description: string, schemaName: string): Json {
  return { 200: { description, content: json(ref(schemaName)) } };
}

function jsonBody(schema: v.GenericSchema): Json {
  return { required: true, content: json(jsonSchema(schema)) };
}

function queryParameters(schema: v.ObjectSchema<v.ObjectEntries, undefined>): Json[] {
  const object = jsonSchema(schema) as { properties: Record<string, Json>; required?: string[] };
  return Object.entries(object.properties).map(([name, property]) => {
    const entry = schema.entries[name];
    return {
      name,
      in: 'query',
      required: object.required?.includes(name) ?? false,
      schema: (entry && integerFromDigits(entry)) ?? property,
    };
  });
}

function uploadBody(): Json {
  const fields = jsonSchema(UploadFields) as { properties: Json; required?: string[] };
  const file = {
    type: 'string',
    contentMediaType: 'text/csv',
    description: `CSV with a header row, at most ${MAX_UPLOAD_BYTES / (1024 * 1024)}MB`,
  };
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: { type: 'object', properties: { file, ...fields.properties }, required: ['file'] },
      },
    },
  };
}

export function openApiPaths(): Json {
  return {
    [PATHS.single]: {
      post: operation({
        summary: 'Queue one address for verification (one credit)',
        requestBody: jsonBody(SingleBody),
        responses: { ...ok(DESCRIPTIONS.queued, 'QueuedSingle'), ...errors(400, 401, 402, 429) },
      }),
    },
    [PATHS.singleStatus]: {
      post: operation({
        summary: 'Status of a single task; the full result once completed',
        requestBody: jsonBody(TaskBody),
        responses: { ...ok(DESCRIPTIONS.singleStatus, 'SingleStatus'), ...errors(400, 401, 402, 404, 429) },
      }),
    },
    [PATHS.bulk]: {
      post: operation({
        summary: 'Upload a CSV for verification (one credit per non-empty email cell)',
        requestBody: uploadBody(),
        responses: {
          ...ok(DESCRIPTIONS.queued, 'QueuedBulk'),
          ...errors([400, UPLOAD_400], 401, 402, 413, 429),
        },
      }),
    },
    [PATHS.bulkStatus]: {
      post: operation({
        summary: 'Status of a bulk file; a signed download URL once completed',
        requestBody: jsonBody(FileBody),
        responses: { ...ok(DESCRIPTIONS.bulkStatus, 'FileStatus'), ...errors(400, 401, 402, 404, 429) },
      }),
    },
    [PATHS.bulkFiles]: {
      get: operation({
        summary: "The key's bulk files, newest first",
        parameters: queryParameters(ListQuery),
        responses: {
          ...ok(DESCRIPTIONS.bulkFiles, 'FileList'),
          ...errors([400, ERRORS.invalidQuery], 401, 402, 429),
        },
      }),
    },
    '/downloads/{file_id}.csv': {
      get: operation({
        summary: 'The results CSV, through the signed URL of a status answer (no key)',
        keyed: false,
        parameters: [
          { name: 'file_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'expires', in: 'query', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
          { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
        ],
        responses: {
          200: { description: 'The results CSV', content: { 'text/csv': { schema: { type: 'string' } } } },
          ...errors(403, 404),
        },
      }),
    },
    [PATHS.account]: {
      get: operation({
        summary: "The key's balance (our service only; never 402, so an expired key sees itself)",
        responses: { ...ok(DESCRIPTIONS.account, 'Account'), ...errors(401, 429) },
      }),
    },
    [PATHS.bulkFile]: {
      delete: operation({
        summary:
          "Delete one of the key's files with its uploaded rows and results at once (our service only; an unfinished file refunds its rows not verified yet)",
        parameters: [{ name: 'file_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          ...ok(DESCRIPTIONS.fileDeleted, 'FileDeleted'),
          ...errors(401, [404, ERRORS.fileNotFound], 429),
        },
      }),
    },
    [OPS_PATHS.health]: {
      get: operation({
        summary: 'Health check: ok once the database answers',
        keyed: false,
        responses: {
          200: { description: 'The database answers', content: json(ref('Health')) },
          503: { description: 'The database does not answer', content: json(ref('Error')) },
        },
      }),
    },
    [OPS_PATHS.metrics]: {
      get: operation({
        summary: 'Prometheus metrics: requests, verifications by verdict, queue depth, SMTP probes',
        keyed: false,
        responses: {
          200: {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      }),
    },
    [OPS_PATHS.openapi]: {
      get: operation({
        summary: 'This document',
        keyed: false,
        responses: { 200: { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
      }),
    },
    [OPS_PATHS.docs]: {
      get: operation({
        summary: 'This document as a readable page',
        keyed: false,
        responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
      }),
    },
  };
}
