/**
 * Child processes of the field run: each started in its own process group, all stopped at
 * the end (also on Ctrl-C or a failure), and the temporary directory removed.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, rmSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** @type {{ name: string, child: import('node:child_process').ChildProcess }[]} */
const children = [];
let tempDir = null;
let keepTemp = false;

export function useTempDir(dir, keep) {
  tempDir = dir;
  keepTemp = keep;
}

/** Starts a command in its own process group; its output goes to `logFile`. */
export function start(name, command, args, { env, cwd, logFile, onLine } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = logFile ? createWriteStream(logFile) : null;
  let tail = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      log?.write(chunk);
      tail = (tail + chunk).slice(-4000);
      if (onLine) for (const line of String(chunk).split('\n')) onLine(line);
    });
  }
  child.on('exit', (code, signal) => {
    child.exitInfo = { code, signal };
  });
  child.on('error', (error) => {
    child.exitInfo = { code: null, signal: null, error };
  });
  child.tail = () => tail;
  children.push({ name, child });
  return child;
}

function signalGroup(child, signal) {
  if (child.exitInfo || !child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

let stopping = null;

/** Stops everything started, newest first: SIGTERM, then SIGKILL after 3 s. */
export function stopAll() {
  if (stopping) return stopping;
  stopping = (async () => {
    const running = children.reverse().filter(({ child }) => !child.exitInfo);
    for (const { child } of running) signalGroup(child, 'SIGTERM');
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && running.some(({ child }) => !child.exitInfo)) await sleep(100);
    for (const { child } of running) signalGroup(child, 'SIGKILL');
    if (tempDir && !keepTemp) rmSync(tempDir, { recursive: true, force: true });
  })();
  return stopping;
}

/** Resolves when host:port accepts a TCP connection; throws after `timeoutMs`. */
export async function waitForPort(host, port, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child?.exitInfo) throw new Error(`exited early (${JSON.stringify(child.exitInfo)}): ${child.tail()}`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(150);
  }
  throw new Error(
    `nothing listens on ${host}:${port} after ${timeoutMs} ms${child ? `: ${child.tail()}` : ''}`,
  );
}

/** A free TCP port on 127.0.0.1 (also free for UDP in practice on a quiet machine). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Is `port` free on every one of `hosts`? */
export async function portFreeOn(hosts, port) {
  for (const host of hosts) {
    const free = await new Promise((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (!free) return false;
  }
  return true;
}
