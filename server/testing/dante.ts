/**
 * A real SOCKS5 server on loopback for the proxy tests: Debian's `dante-server` (danted).
 * Installed with apt-get when missing and running as root (as scripts/provision-browsers.mjs
 * does for browsers); otherwise `startDante` resolves with the reason the tests are skipped.
 * Outgoing connections leave from EXTERNAL_IP, so a peer can tell a proxied connection from a
 * direct one (which comes from 127.0.0.1).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const DANTED = '/usr/sbin/danted';
/** The address dante connects out from. */
export const DANTE_EXTERNAL_IP = '127.0.0.5';

export interface Dante {
  /** `socks5://127.0.0.1:<port>` (with user:pass@ when started with credentials). */
  url: string;
  port: number;
  /** dante's own log so far (one line per client connection and proxied connection). */
  log(): Promise<string>;
  stop(): Promise<void>;
}

function installIfMissing(): string | null {
  if (existsSync(DANTED)) return null;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) {
    return `SOCKS5 tests skipped: ${DANTED} is missing. Install Debian's dante-server (sudo apt-get install -y --no-install-recommends dante-server), or run the tests as root to have it installed.`;
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const args = ['/tmp/apt.lock', 'apt-get', 'install', '-y', '--no-install-recommends', 'dante-server'];
  let result = spawnSync('flock', args, { stdio: 'ignore', env });
  if (result.status !== 0) {
    spawnSync('flock', ['/tmp/apt.lock', 'apt-get', 'update'], { stdio: 'ignore', env });
    result = spawnSync('flock', args, { stdio: 'ignore', env });
  }
  return existsSync(DANTED) ? null : 'SOCKS5 tests skipped: installing dante-server with apt-get failed.';
}

async function waitForPort(port: number, child: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`danted exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('danted did not start listening');
}

/** Starts danted; resolves with a string (why not) when it cannot run here. */
export async function startDante(): Promise<Dante | string> {
  const missing = installIfMissing();
  if (missing) return missing;
  const dir = await mkdtemp(join(tmpdir(), 'verimark-dante-'));
  const port = await freePort();
  const logPath = join(dir, 'danted.log');
  const config = [
    `logoutput: ${logPath}`,
    `internal: 127.0.0.1 port = ${port}`,
    `external: ${DANTE_EXTERNAL_IP}`,
    'clientmethod: none',
    'socksmethod: none',
    'user.privileged: root',
    'user.unprivileged: nobody',
    'client pass {',
    '  from: 127.0.0.0/8 to: 0.0.0.0/0',
    '  log: connect disconnect',
    '}',
    'socks pass {',
    '  from: 127.0.0.0/8 to: 0.0.0.0/0',
    '  command: connect',
    '  log: connect disconnect',
    '}',
  ].join('\n');
  await writeFile(join(dir, 'danted.conf'), `${config}\n`);
  const child = spawn(DANTED, ['-f', join(dir, 'danted.conf'), '-p', join(dir, 'danted.pid'), '-N', '1'], {
    stdio: 'ignore',
  });
  try {
    await waitForPort(port, child, 5000);
  } catch (error) {
    child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
    return `SOCKS5 tests skipped: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    url: `socks5://127.0.0.1:${port}`,
    port,
    log: () => readFile(logPath, 'utf8').catch(() => ''),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
