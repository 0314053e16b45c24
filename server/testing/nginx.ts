/**
 * Debian's reverse proxies for the reverse-proxy test (server/reverse-proxy.test.ts): nginx (at
 * /usr/sbin/nginx, or VERIMARK_NGINX) and caddy, installed with apt-get when missing and running
 * as root — as scripts/provision-browsers.mjs does for the browsers — and nginx run in the
 * foreground with a configuration of the test's own (its prefix, pid and logs in a temporary
 * folder), stopped with SIGQUIT.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/**
 * A Debian package's executable (`VERIMARK_<NAME>` overrides where it is); installs the package
 * with apt-get when it is missing and this runs as root, else says what to install.
 */
export function provisionPackage(pkg: string, executable: string): string {
  const path = process.env[`VERIMARK_${pkg.toUpperCase()}`] || executable;
  if (existsSync(path)) return path;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    throw new Error(
      `The reverse-proxy test needs ${pkg}, not found at ${path}: sudo apt-get install -y --no-install-recommends ${pkg} (npm test installs it itself as root), or VERIMARK_${pkg.toUpperCase()}=/path/to/${pkg}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', pkg]]) {
    const result = spawnSync('flock', ['/tmp/apt.lock', 'apt-get', ...args], { stdio: 'inherit', env });
    if (result.status !== 0) throw new Error(`apt-get ${args[0]} failed (exit ${result.status})`);
  }
  if (!existsSync(path)) throw new Error(`${pkg} is still missing at ${path} after apt-get install`);
  return path;
}

/** Debian's nginx, installed when missing (as root). */
export const provisionNginx = () => provisionPackage('nginx', '/usr/sbin/nginx');

export interface RunningNginx {
  output(): string;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

/**
 * Runs nginx in the foreground with `server` (one or more server blocks) inside an http block of
 * the test's own, under `dir`; resolves once `port` on 127.0.0.1 accepts connections.
 */
export async function startNginx(opts: { dir: string; server: string; port: number }): Promise<RunningNginx> {
  const nginx = provisionNginx();
  const { dir } = opts;
  mkdirSync(join(dir, 'temp'), { recursive: true });
  // Worker processes run as nobody: they must reach the temporary folders.
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'temp'), 0o777);
  writeFileSync(join(dir, 'site.conf'), opts.server);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${join(dir, 'access.log')};`,
      `  client_body_temp_path ${join(dir, 'temp', 'body')};`,
      `  proxy_temp_path ${join(dir, 'temp', 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'temp', 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'temp', 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'temp', 'scgi')};`,
      `  include ${join(dir, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d));
  child.stderr?.on('data', (d: Buffer) => (output += d));
  const deadline = Date.now() + 15_000;
  while (!(await listening(opts.port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
