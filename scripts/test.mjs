#!/usr/bin/env node
// `npm test`, in this order: browsers → lint → build:test (Chrome and Firefox) → typecheck beside
// web-ext lint of the Firefox build → the store checks (scripts/store-zips.mjs: the zips, web-ext
// lint of the Firefox zip, the rebuild from the sources zip) → every Vitest project → the
// service's suites on Node 22 (scripts/node22-check.mjs) → the Dockerfile and compose stack built
// and run with podman (scripts/container-check.mjs).
// Ends with the line `N passed, M failed`, counting every test and every check, and exits non-zero
// on any failure. Needs no stdin (CI=true works).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { provisionBrowsers } from './provision-browsers.mjs';
import { storeChecks } from './store-zips.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.resolve(ROOT, process.env.VERIMARK_OUT_DIR ?? '.output');
const RESULTS = path.join(ROOT, 'test-results', 'vitest.json');
const checks = [];

/** Runs a command; `capture` buffers its output (printed when done) so parallel steps do not interleave. */
function run(cmd, args, { capture = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

function record(name, ok, detail = '') {
  checks.push({ name, ok });
  console.log(`${ok ? '✓' : '✗'} check: ${name}${detail ? ` — ${detail}` : ''}`);
}

async function step(name, cmd, args, opts) {
  const { code, output } = await run(cmd, args, opts);
  if (opts?.capture && (code !== 0 || process.env.VERBOSE)) process.stdout.write(output);
  record(name, code === 0, code === 0 ? '' : `exit ${code}`);
  return code === 0;
}

/** The container check; skipped (and said so) only when podman cannot run at all on this machine. */
async function containerCheck() {
  const { code, output } = await run(process.execPath, ['scripts/container-check.mjs'], { capture: true });
  const skipped = /^SKIPPED container check: (.*)$/m.exec(output);
  if (code !== 0 || skipped || process.env.VERBOSE) process.stdout.write(output);
  record('container', code === 0, skipped ? `skipped: ${skipped[1]}` : code === 0 ? '' : `exit ${code}`);
}

async function browsers() {
  try {
    provisionBrowsers();
    record('browsers', true);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    record('browsers', false, 'see above');
  }
}

async function webExtLint() {
  const source = path.join(OUT_DIR, 'firefox-mv2-test');
  if (!existsSync(source)) return record('web-ext lint', false, `no Firefox build at ${source}`);
  const { output } = await run(
    'npx',
    ['web-ext', 'lint', '--no-config-discovery', '--source-dir', source, '--output', 'json'],
    {
      capture: true,
    },
  );
  let report;
  try {
    report = JSON.parse(output.slice(output.indexOf('{')));
  } catch {
    process.stdout.write(output);
    return record('web-ext lint', false, 'unreadable report');
  }
  for (const m of [...report.errors, ...report.warnings]) {
    console.log(`  web-ext ${m._type}: ${m.code} ${m.file ?? ''} — ${m.message}`);
  }
  const { errors, warnings, notices } = report.summary;
  record('web-ext lint', errors === 0, `${errors} errors, ${warnings} warnings, ${notices} notices`);
}

/** Runs every Vitest project (extra arguments, e.g. `npm test -- --project unit`, go to Vitest). */
async function vitest(extra) {
  await rm(RESULTS, { force: true });
  await mkdir(path.dirname(RESULTS), { recursive: true });
  const { code } = await run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}`, ...extra],
    {
      env: { CI: process.env.CI ?? 'true' },
    },
  );
  try {
    const report = JSON.parse(await readFile(RESULTS, 'utf8'));
    // A file that fails before its tests run (import error, failing hook) has no failed test: count it.
    const brokenFiles = report.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'),
    ).length;
    let failed = report.numFailedTests + brokenFiles;
    if (code !== 0 && failed === 0) {
      // E.g. an unhandled error between tests: Vitest fails the run although every test passed.
      console.error(`Vitest exited with ${code} although no test failed: counting the run as one failure.`);
      failed = 1;
    }
    return { passed: report.numPassedTests, failed };
  } catch {
    console.error(`No Vitest report at ${path.relative(ROOT, RESULTS)}: counting the run as one failure.`);
    return { passed: 0, failed: 1 };
  }
}

await browsers();
await step('lint', 'npm', ['run', '--silent', 'lint'], { capture: true });
await rm(path.join(OUT_DIR, 'chrome-mv3-test'), { recursive: true, force: true });
await rm(path.join(OUT_DIR, 'firefox-mv2-test'), { recursive: true, force: true });
await step('build:test', 'npm', ['run', '--silent', 'build:test'], { capture: true });
// After the build (which regenerates .wxt/ types), type checking runs beside web-ext lint.
await Promise.all([
  step('typecheck', 'npm', ['run', '--silent', 'typecheck'], { capture: true }),
  webExtLint(),
]);
// The store zips, web-ext lint of the Firefox one, and their rebuild from the sources zip. After
// the typecheck: `wxt zip` rewrites .wxt/, which tsc reads.
for (const c of await storeChecks()) record(c.name, c.ok, c.detail);
const tests = await vitest(process.argv.slice(2));
// After the Vitest projects, one at a time: each builds and runs the service again.
await step('node 22', process.execPath, ['scripts/node22-check.mjs'], { capture: true });
await containerCheck();

const passed = tests.passed + checks.filter((c) => c.ok).length;
const failed = tests.failed + checks.filter((c) => !c.ok).length;
const failedChecks = checks.filter((c) => !c.ok).map((c) => c.name);
if (failedChecks.length > 0) console.log(`Failed checks: ${failedChecks.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
