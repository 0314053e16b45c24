/**
 * The service's OpenAPI 3.1 document (docs/design.md §3 "Beyond the contract"), generated from
 * the valibot schemas the routes validate with (./validation.ts) and the response schemas
 * (contract/src/contract.ts, ./openapi-schemas.ts) by @valibot/to-json-schema. Served at
 * GET /openapi.json and committed as docs/openapi.json by `npm run openapi`; a test keeps the two equal.
 */
import { API_KEY_HEADER, QueuedBulkSchema, QueuedSingleSchema } from '@verimark/contract';
import { type Json, jsonSchema } from './json-schema';
import { openApiPaths } from './openapi-paths';
import {
  AccountResultSchema,
  CompletedResultSchema,
  ErrorSchema,
  FileDeletedSchema,
  FileListResultSchema,
  FileStatusSchema,
  HealthSchema,
} from './openapi-schemas';

export function buildOpenApi(): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Verimark verification service',
      version: '1.0.0',
      description:
        'The email verification contract (docs/api-spec.md) as the reference service implements it, ' +
        'plus its own endpoints beyond the contract (docs/design.md §3). Every 200 answer is the ' +
        'envelope {message: {status, statusCode, description}, data}; every error is {error, message}.',
    },
    security: [{ apiKey: [] }],
    paths: openApiPaths(),
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER } },
      schemas: {
        Error: jsonSchema(ErrorSchema),
        QueuedSingle: jsonSchema(QueuedSingleSchema),
        SingleStatus: jsonSchema(CompletedResultSchema),
        QueuedBulk: jsonSchema(QueuedBulkSchema),
        FileStatus: jsonSchema(FileStatusSchema),
        FileList: jsonSchema(FileListResultSchema),
        Account: jsonSchema(AccountResultSchema),
        FileDeleted: jsonSchema(FileDeletedSchema),
        Health: jsonSchema(HealthSchema),
      },
    },
  };
}
