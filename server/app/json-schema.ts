/**
 * JSON Schema (OpenAPI 3.1's dialect) from the valibot schemas the routes validate with, for the
 * generated OpenAPI document.
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

export type Json = Record<string, unknown>;

interface Pipe {
  pipe?: readonly { type: string; requirement?: unknown }[];
}

/**
 * A query parameter validated as digits then turned into a number (`page`, `pageSize`) is
 * described as the integer it stands for, with the bounds the pipe checks after the transform.
 */
export function integerFromDigits(schema: v.GenericSchema): Json | null {
  const pipe = (schema as Pipe).pipe;
  if (!pipe?.some((step) => step.type === 'transform')) return null;
  const bound = (type: string) => pipe.find((step) => step.type === type)?.requirement;
  const minimum = bound('min_value');
  const maximum = bound('max_value');
  return {
    type: 'integer',
    ...(typeof minimum === 'number' ? { minimum } : {}),
    ...(typeof maximum === 'number' ? { maximum } : {}),
  };
}

/** JSON Schema (2020-12, OpenAPI 3.1's dialect) of a valibot schema, as a client sends or receives it. */
export function jsonSchema(schema: v.GenericSchema): Json {
  const { $schema: _dialect, ...rest } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'ignore',
    // Trimming and custom checks (e.g. "a column name, not an address") have no JSON Schema form.
    errorMode: 'ignore',
  });
  return rest as Json;
}
