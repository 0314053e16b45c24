#!/usr/bin/env node
// `npm run bench`: runs every bench/*.ts (sorted) with tsx, one after another, printing their
// output. Benchmarks print their own ratios against a floor measured in the same run.
// `npm run bench -- name` runs only the files whose name contains `name`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = path.join(ROOT, 'bench');
const filters = process.argv.slice(2);

const files = existsSync(BENCH)
  ? readdirSync(BENCH)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
      .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
      .sort()
  : [];
if (files.length === 0) {
  console.log('No benchmarks found in bench/.');
  process.exit(0);
}

const failed = [];
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(BENCH, file)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) failed.push(`${file} (exit ${result.status ?? result.signal})`);
}
console.log(
  `\n${files.length - failed.length} of ${files.length} benchmarks ran${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exit(failed.length === 0 ? 0 : 1);
