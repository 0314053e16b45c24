/**
 * docs/openapi.json is what the service generates, a valid OpenAPI 3.1 document describing every
 * endpoint with the routes' validation rules.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { PATHS } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openApiText } from '../write-openapi';
import { buildOpenApi } from './openapi';

describe('docs/openapi.json', () => {
  it('is exactly what `npm run openapi` generates from the schemas (run it after changing them)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(buildOpenApi());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every endpoint, the ops ones without a key', () => {
    const doc = buildOpenApi() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([...Object.values(PATHS), '/healthz', '/metrics', '/openapi.json', '/docs']),
    );
    expect(doc.paths['/healthz']?.get?.security).toEqual([]);
    expect(doc.paths[PATHS.account]?.get?.security).toBeUndefined();
    expect(doc.paths[PATHS.bulkFile]?.delete).toBeDefined();
    expect(doc.paths[PATHS.bulkFile]?.delete?.security).toBeUndefined();
  });

  it('carries the validation rules of the routes (bounds, enums, required fields)', () => {
    const doc = buildOpenApi() as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; required: boolean; schema: object }[] }>
      >;
    };
    const params = doc.paths[PATHS.bulkFiles]?.get?.parameters ?? [];
    expect(params.find((p) => p.name === 'pageSize')).toEqual({
      name: 'pageSize',
      in: 'query',
      required: true,
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    });
    expect(params.find((p) => p.name === 'search')?.required).toBe(false);
    const text = JSON.stringify(doc.paths[PATHS.single]);
    expect(text).toContain('"enum":["catch_all","non_catch_all"]');
    expect(text).toContain('"required":["email"]');
  });
});
