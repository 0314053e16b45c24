#!/usr/bin/env node
// Keeps package-lock.json whole for `npm ci` on registries that lack some platform binaries.
//
// Packages such as rollup and biome list one optional dependency per platform. When the registry
// this lock was made against does not hold some of them (a partial mirror answers 404), `npm
// install` leaves them out of the lock and `npm ci` then refuses the lock as out of sync. This
// adds the missing entries with the os/cpu/libc their names state, so npm skips them on every
// other platform exactly as it would with a complete lock. Run it after changing dependencies:
//   npm install <pkg> && node scripts/lock-platforms.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCK = path.join(ROOT, 'package-lock.json');

const OSES = [
  'android',
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'netbsd',
  'openharmony',
  'sunos',
  'aix',
];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

/** The platform a package name such as `@rollup/rollup-linux-arm-musleabihf` is built for, or null. */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OSES.includes(p));
  if (!os) return null;
  const rest = parts.slice(parts.indexOf(os) + 1);
  const cpu = rest.find((p) => CPUS.includes(p)) ?? (rest.some((p) => p.startsWith('arm')) ? 'arm' : null);
  if (!cpu) return null;
  const libc = os === 'linux' ? (rest.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc') : null;
  return { os, cpu, libc };
}

export function completeLock(lock) {
  const packages = lock.packages;
  const added = [];
  for (const [where, entry] of Object.entries(packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      // Resolution as npm does it: nested under the dependent first, then hoisted.
      const nested = `${where ? `${where}/` : ''}node_modules/${dep}`;
      if (packages[nested] || packages[`node_modules/${dep}`]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      packages[`node_modules/${dep}`] = {
        version,
        ...(entry.dev ? { dev: true } : {}),
        optional: true,
        os: [platform.os],
        cpu: [platform.cpu],
        ...(platform.libc ? { libc: [platform.libc] } : {}),
      };
      added.push(`${dep}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  return added;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
  const added = completeLock(lock);
  writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(
    added.length
      ? `Added ${added.length} platform entries:\n  ${added.join('\n  ')}`
      : 'Lock already complete.',
  );
}
