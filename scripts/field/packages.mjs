/**
 * The mail and DNS servers of the field run, installed when missing.
 *
 * knot and postgrey come from apt (serialised with flock /tmp/apt.lock). Postfix and Exim are
 * both "mail transport agents": Debian lets only one be installed, and installing one removes
 * the other. So an installed one is used as it is, and a missing one is unpacked from its
 * Debian package into a cache folder (apt-get download + dpkg-deb -x) and run from there with
 * a private configuration: the machine's own MTA is never replaced.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const CACHE = '/var/cache/verimark-field';

function sh(command, args, options = {}) {
  return execFileSync(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    ...options,
  });
}

function aptInstall(packages) {
  console.log(`apt-get install ${packages.join(' ')} …`);
  const run = () =>
    sh('flock', ['/tmp/apt.lock', 'apt-get', 'install', '-y', '--no-install-recommends', ...packages]);
  try {
    run();
  } catch {
    sh('flock', ['/tmp/apt.lock', 'apt-get', 'update']);
    run();
  }
}

/** knotd and postgrey, from apt when missing. */
export function ensureAptTools() {
  const missing = [];
  if (!existsSync('/usr/sbin/knotd')) missing.push('knot');
  if (!existsSync('/usr/sbin/postgrey')) missing.push('postgrey');
  if (missing.length > 0) aptInstall(missing);
}

function ensureUser(user, group) {
  try {
    sh('getent', ['group', group]);
  } catch {
    sh('groupadd', ['--system', group]);
  }
  try {
    sh('getent', ['passwd', user]);
  } catch {
    sh('useradd', ['--system', '--gid', group, '--no-create-home', '--shell', '/usr/sbin/nologin', user]);
  }
}

/** Unpacks a Debian package into CACHE/<name> once; returns that folder. */
function unpacked(pkg) {
  const root = path.join(CACHE, pkg);
  if (existsSync(path.join(root, '.complete'))) return root;
  mkdirSync(CACHE, { recursive: true });
  console.log(`apt-get download ${pkg} (unpacked into ${root}, not installed) …`);
  sh('apt-get', ['download', pkg], { cwd: CACHE });
  const deb = readdirSync(CACHE).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${CACHE}`);
  sh('rm', ['-rf', root]);
  sh('dpkg-deb', ['-x', path.join(CACHE, deb), root]);
  sh('touch', [path.join(root, '.complete')]);
  return root;
}

/**
 * Postfix: '' (installed) or the folder it was unpacked into. Its shared libraries
 * (libsasl2, …) are plain libraries; apt installs the ones missing without conflicts.
 */
export function ensurePostfix() {
  ensureUser('postfix', 'postfix');
  try {
    sh('getent', ['group', 'postdrop']);
  } catch {
    sh('groupadd', ['--system', 'postdrop']);
  }
  if (existsSync('/usr/lib/postfix/sbin/master')) return '';
  if (!existsSync('/usr/lib/x86_64-linux-gnu/libsasl2.so.2')) aptInstall(['libsasl2-2']);
  return unpacked('postfix');
}

/** Exim's binary: the installed one, or one unpacked from exim4-daemon-light. */
export function ensureExim() {
  if (existsSync('/usr/sbin/exim4')) return '/usr/sbin/exim4';
  ensureUser('Debian-exim', 'Debian-exim');
  aptInstall(['libidn12', 'libgnutls-dane0', 'libnsl2', 'libdb5.3', 'libpcre2-8-0']);
  return path.join(unpacked('exim4-daemon-light'), 'usr/sbin/exim4');
}
