/**
 * `npm run openapi`: writes docs/openapi.json from the service's schemas (server/app/openapi.ts).
 * server/app/openapi.test.ts fails when the committed file differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from './app/openapi';

export const OPENAPI_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'openapi.json');

/** The committed file's exact text: two-space JSON and a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`Wrote ${OPENAPI_FILE}`);
}
