/**
 * The valibot schemas of request bodies, queries and upload fields, and parseBody, which answers
 * 400 `Invalid request body` when one does not fit.
 */
import { DEFAULT_MODE, ERRORS, MAX_PAGE_SIZE, MODES } from '@verimark/contract';
import { isValidColumnName } from '@verimark/contract/email-column';
import * as v from 'valibot';
import { HttpError } from './errors';

const mode = v.optional(v.picklist(MODES), DEFAULT_MODE);
const id = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));

export const SingleBody = v.object({
  // Not trimmed here: the address rules (contract/src/address.ts) trim, and refuse a line break
  // anywhere, the same way in the extension and the service.
  email: v.pipe(
    v.string(),
    v.maxLength(1024),
    v.check((email) => email.trim() !== ''),
  ),
  mode,
});

export const TaskBody = v.object({ task_id: id });
export const FileBody = v.object({ file_id: id });

const int = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,9}$/), v.transform(Number), v.minValue(1), v.maxValue(max));

export const ListQuery = v.object({
  page: int(999_999_999),
  pageSize: int(MAX_PAGE_SIZE),
  search: v.optional(v.pipe(v.string(), v.maxLength(500)), ''),
});

/** The multipart text fields of an upload. */
export const UploadFields = v.object({
  fileName: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500))),
  emailColumn: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500), v.check(isValidColumnName))),
  mode: v.optional(v.pipe(v.string(), v.trim(), v.picklist(MODES)), DEFAULT_MODE),
});

/** Parses a JSON body; 400 `Invalid request body` when it does not fit. */
export function parseBody<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw new HttpError(400, ERRORS.invalidBody);
  return result.output;
}

/** Parses list query parameters; 400 `Invalid query parameters` when they do not fit. */
export function parseQuery<S extends v.GenericSchema>(schema: S, query: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, query);
  if (!result.success) throw new HttpError(400, ERRORS.invalidQuery);
  return result.output;
}
