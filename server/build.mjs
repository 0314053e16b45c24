#!/usr/bin/env node
// `npm run build -w server`: the service as plain JavaScript in dist/, run with `node` (no tsx).
// Each entry is bundled with the shared @verimark/contract package inlined; the service's npm
// dependencies stay external. dist/ gets its own package.json (runtime dependencies only) and a
// package-lock.json cut from the repository's lockfile, so `cd dist && npm ci --omit=dev` installs
// exactly the versions the tests ran with and nothing else (docs/self-hosting.md). dist/deploy/
// holds the environment file and systemd units of the production install (server/deploy/).
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(HERE, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).flatMap((name) => [name, `${name}/*`]);

// `--manifest-only`: dist/package.json and dist/package-lock.json alone, so that an image build
// can install the runtime dependencies in a layer of their own, before the sources are copied in.
const manifestOnly = process.argv.includes('--manifest-only');

rmSync(path.join(HERE, 'dist'), { recursive: true, force: true });
if (!manifestOnly) {
  // Loaded only to bundle: the manifest alone needs no installed dependency.
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: HERE,
    entryPoints: {
      main: 'main.ts',
      worker: 'worker.ts',
      admin: 'admin.ts',
      // The CSV scanner's thread (csv/scan-thread.ts loads it beside the entry that starts it).
      'scan-thread-worker': 'csv/scan-thread-worker.ts',
    },
    outdir: 'dist',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external,
    sourcemap: true,
    logLevel: 'warning',
    banner: { js: '#!/usr/bin/env node' },
  });
  cpSync(path.join(HERE, 'deploy'), path.join(HERE, 'dist', 'deploy'), { recursive: true });
}

/** The lockfile entries the runtime dependencies need, taken from the repository's lockfile. */
function runtimeLock(rootLock, dependencies) {
  const all = rootLock.packages;
  const kept = {};
  // Node's resolution: from a package's folder up through each enclosing node_modules.
  const resolve = (from, name) => {
    let dir = from;
    for (;;) {
      const at = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (all[at]) return at;
      if (!dir) return null;
      const cut = dir.lastIndexOf('/node_modules/');
      dir = cut === -1 ? '' : dir.slice(0, cut);
    }
  };
  const visit = (from, name, optional) => {
    const at = resolve(from, name);
    if (!at) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || 'the service'}) is not in package-lock.json`);
    }
    if (kept[at] || all[at].link) return;
    const { dev, devOptional, peer, ...entry } = all[at];
    kept[at] = entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(at, dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(at, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) {
      if (!entry.peerDependenciesMeta?.[dep]?.optional) visit(at, dep, false);
    }
  };
  for (const name of Object.keys(dependencies)) visit('', name, false);
  return kept;
}

const { devDependencies, scripts, files, ...runtime } = pkg;
const distPkg = {
  ...runtime,
  main: 'main.js',
  bin: { 'verimark-service': 'main.js', 'verimark-worker': 'worker.js', 'verimark-admin': 'admin.js' },
  scripts: { start: 'node main.js', worker: 'node worker.js', admin: 'node admin.js' },
};
const rootLock = JSON.parse(readFileSync(path.join(HERE, '..', 'package-lock.json'), 'utf8'));
const lock = {
  name: pkg.name,
  version: pkg.version,
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license,
      dependencies: pkg.dependencies,
      engines: pkg.engines,
      bin: distPkg.bin,
    },
    ...runtimeLock(rootLock, pkg.dependencies),
  },
};
mkdirSync(path.join(HERE, 'dist'), { recursive: true });
writeFileSync(path.join(HERE, 'dist', 'package.json'), `${JSON.stringify(distPkg, null, 2)}\n`);
writeFileSync(path.join(HERE, 'dist', 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
