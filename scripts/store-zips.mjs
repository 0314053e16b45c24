#!/usr/bin/env node
// `npm run store:check`: what would be uploaded to the stores, checked the way their reviewers
// check it. Builds the store zips (`npm run zip`: Chrome, Firefox, sources), lints the Firefox zip
// with `web-ext lint` (0 errors), then unpacks the sources zip into a temporary folder, runs the
// documented build there (`npm ci -w contract --include-workspace-root --ignore-scripts`, then
// `npm run zip`; docs/store/firefox.md) and requires the same files, byte for byte, in the Firefox
// zip (the sources zip cannot build Chrome's offscreen page). Prints `✓`/`✗` lines and exits
// non-zero on any failure. Needs the npm registry or a warm npm cache (npm ci --prefer-offline).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The libraries WXT writes its zips and picks their files with, so both read them the same way.
const fromWxt = createRequire(fileURLToPath(import.meta.resolve('wxt')));
const JSZip = fromWxt('jszip');
const { minimatch } = fromWxt('minimatch');

/**
 * The files of `files` the sources zip takes with wxt.config.ts's `includeSources: include` and
 * `excludeSources: exclude`: those matching an include pattern and no exclude pattern (WXT globs
 * the include patterns with the exclude patterns as its ignore list).
 */
export function sourcesOf(files, include, exclude) {
  return files.filter(
    (file) => include.some((p) => minimatch(file, p)) && !exclude.some((p) => minimatch(file, p)),
  );
}

/** The environment of a store build: none of the test, source-map or no-minify switches. */
export function storeEnv(env, { keepOutDir = false } = {}) {
  const clean = { ...env, CI: 'true' };
  for (const name of Object.keys(clean)) {
    if (name.startsWith('VERIMARK_') && !(keepOutDir && name === 'VERIMARK_OUT_DIR')) delete clean[name];
  }
  return clean;
}

function run(cmd, args, cwd, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${err.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function mustRun(what, cmd, args, cwd, env) {
  const { code, output } = await run(cmd, args, cwd, env);
  if (code !== 0) throw new Error(`${what} failed (exit ${code}):\n${output.slice(-4000)}`);
  return output;
}

/** The files of a zip: path → bytes (directories left out). */
export async function zipEntries(file) {
  const zip = await JSZip.loadAsync(await readFile(file));
  const entries = new Map();
  for (const entry of Object.values(zip.files)) {
    if (!entry.dir) entries.set(entry.name, Buffer.from(await entry.async('uint8array')));
  }
  return entries;
}

/** What differs between two file sets: paths only in one of them, and paths whose bytes differ. */
export function compareFiles(expected, actual) {
  const missing = [...expected.keys()].filter((name) => !actual.has(name)).sort();
  const extra = [...actual.keys()].filter((name) => !expected.has(name)).sort();
  const changed = [...expected.keys()]
    .filter((name) => actual.has(name) && !expected.get(name).equals(actual.get(name)))
    .sort();
  return { missing, extra, changed, same: missing.length + extra.length + changed.length === 0 };
}

export function describeDifference({ missing, extra, changed }) {
  const parts = [];
  if (missing.length) parts.push(`missing in the rebuild: ${missing.join(', ')}`);
  if (extra.length) parts.push(`only in the rebuild: ${extra.join(', ')}`);
  if (changed.length) parts.push(`different bytes: ${changed.join(', ')}`);
  return parts.join('; ');
}

/** The store zips' paths in `outDir`, named as WXT names them (wxt.config.ts keeps its defaults). */
export async function zipPaths(root, outDir) {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const base = path.join(outDir, `${pkg.name}-${pkg.version}`);
  return { chrome: `${base}-chrome.zip`, firefox: `${base}-firefox.zip`, sources: `${base}-sources.zip` };
}

/** Writes a zip's files into `dir`. */
async function unpack(entries, dir) {
  for (const [name, bytes] of entries) {
    const file = path.join(dir, name);
    if (!file.startsWith(dir + path.sep)) throw new Error(`zip entry outside its folder: ${name}`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
  }
}

/** `web-ext lint` of an unpacked zip; returns the summary and the messages worth printing. */
async function lintFirefox(entries, dir) {
  await unpack(entries, dir);
  const { output } = await run(
    'npx',
    ['web-ext', 'lint', '--no-config-discovery', '--source-dir', dir, '--output', 'json'],
    ROOT,
    process.env,
  );
  const report = JSON.parse(output.slice(output.indexOf('{')));
  const messages = [...report.errors, ...report.warnings].map(
    (m) => `web-ext ${m._type}: ${m.code} ${m.file ?? ''} — ${m.message}`,
  );
  return { summary: report.summary, messages };
}

/**
 * Every check, in order: `{ name, ok, detail }`, and the web-ext messages worth printing through
 * `log`. Never throws: a step that fails ends the run as one failed check.
 */
export async function storeChecks({ log = console.log } = {}) {
  const checks = [];
  const record = (name, ok, detail = '') => checks.push({ name, ok, detail });
  const outDir = path.resolve(ROOT, process.env.VERIMARK_OUT_DIR ?? '.output');
  const temp = await mkdtemp(path.join(tmpdir(), 'verimark-store-'));
  try {
    await mustRun(
      'npm run zip',
      'npm',
      ['run', '--silent', 'zip'],
      ROOT,
      storeEnv(process.env, { keepOutDir: true }),
    );
    const zips = await zipPaths(ROOT, outDir);
    const store = { chrome: await zipEntries(zips.chrome), firefox: await zipEntries(zips.firefox) };
    const sources = await zipEntries(zips.sources);
    record(
      'store zips',
      true,
      `chrome ${store.chrome.size} files, firefox ${store.firefox.size}, sources ${sources.size}`,
    );

    const lint = await lintFirefox(store.firefox, path.join(temp, 'firefox'));
    for (const line of lint.messages) log(`  ${line}`);
    const { errors, warnings, notices } = lint.summary;
    record(
      'web-ext lint (Firefox store zip)',
      errors === 0,
      `${errors} errors, ${warnings} warnings, ${notices} notices`,
    );

    // The reviewer's rebuild, in a folder holding nothing but the sources zip's files.
    const src = path.join(temp, 'sources');
    await unpack(sources, src);
    const env = storeEnv(process.env);
    await mustRun(
      'npm ci (the extension alone)',
      'npm',
      [
        'ci',
        '-w',
        'contract',
        '--include-workspace-root',
        '--ignore-scripts',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      src,
      env,
    );
    await mustRun('npm run zip (from the sources zip)', 'npm', ['run', '--silent', 'zip'], src, env);
    const rebuilt = await zipPaths(src, path.join(src, '.output'));
    // The sources zip is Firefox's (its reviewers rebuild the add-on from it); WXT leaves out the
    // entry points Firefox does not build (the Chrome-only offscreen document), so it rebuilds the
    // Firefox zip, not the Chrome one.
    for (const browser of ['firefox']) {
      const diff = compareFiles(store[browser], await zipEntries(rebuilt[browser]));
      record(
        `sources zip rebuilds the ${browser} zip`,
        diff.same,
        diff.same ? `${store[browser].size} files, same bytes` : describeDifference(diff),
      );
    }
  } catch (err) {
    record('store zips', false, err instanceof Error ? err.message : String(err));
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return checks;
}

async function main() {
  const started = Date.now();
  const checks = await storeChecks();
  for (const { name, ok, detail } of checks) {
    console.log(`${ok ? '✓' : '✗'} check: ${name}${detail ? ` — ${detail}` : ''}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(
    `store:check ${failed === 0 ? 'passed' : `failed (${failed})`} in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  process.exitCode = failed === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
