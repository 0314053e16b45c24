/**
 * Runs the REAL service (`server/main.ts`) as a child process for integration and end-to-end
 * tests: 127.0.0.1, a random port, a temporary DATA_DIR, DNS and SMTP pointed at the fake
 * network, and a fresh API key with plenty of credits. From source through tsx by default; from
 * an installed build (`main.js`, `worker.js`, `admin.js` of `npm run build -w server`) when
 * `serviceDir` or the environment's VERIMARK_SERVICE_DIR names its folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type FakeNet, fakeNetEnv, startFakeNet } from './fake-net';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const LISTENING = /Verimark service listening on (http:\/\/\S+)/;
const WORKER_STARTED = /Verimark worker (\S+) started/;
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

export interface StartServiceOptions {
  /** Reuse a data directory (e.g. after kill(), to test a restart); default a new temp dir. */
  dataDir?: string;
  /** Extra environment for the service (e.g. RATE_LIMIT_PER_MIN). */
  env?: Record<string, string>;
  /** The fake network to point at; default one started (and stopped) for this service. */
  fakeNet?: FakeNet;
  /** Extra node options for the service process (e.g. `--cpu-prof` in a benchmark). */
  nodeArgs?: string[];
  /** `postgres://…`: the service uses this database instead of SQLite in its DATA_DIR. */
  databaseUrl?: string;
  /** The process's working directory (default the repository). */
  cwd?: string;
  /** A built, installed service to run instead of the TypeScript sources (default VERIMARK_SERVICE_DIR). */
  serviceDir?: string;
}

export interface RunningService {
  baseUrl: string;
  /** A key created for the test, with 1,000,000 credits. */
  apiKey: string;
  dataDir: string;
  /** The service process's pid (e.g. to read /proc/<pid>/status). */
  pid: number;
  /** The service's stdout and stderr so far. */
  output(): string;
  /** The process's exit code once it has exited (0 after a clean stop()), else null. */
  exitCode(): number | null;
  /** SIGTERM and wait; then removes the fake net and data dir this helper created. */
  stop(): Promise<void>;
  /** SIGKILL and wait, for crash tests; the data dir is kept (stop() still cleans up). */
  kill(): Promise<void>;
  /** Runs `server/admin.ts` on this service's DATA_DIR; resolves with its stdout. */
  admin(args: string[]): Promise<string>;
}

/** Runs one of the service's programs (`server/main.ts`, …) from source, or its build from `serviceDir`. */
function tsxNode(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
  cwd = ROOT,
  serviceDir = process.env.VERIMARK_SERVICE_DIR,
): ChildProcess {
  // tsx by absolute path: the process may run in another working directory.
  const program = serviceDir
    ? [join(resolve(serviceDir), basename(script).replace(/\.ts$/, '.js'))]
    : ['--import', TSX, join(ROOT, script)];
  return spawn(process.execPath, [...nodeArgs, ...program, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => child.once('exit', () => done()));
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited(child);
  clearTimeout(timer);
}

/** The last line of a finished admin command's stdout, trimmed. */
/** What the service keeps in its data directory besides uploads (none: they live in the database). */
const DATA_DIR_ENTRIES = /^(verimark\.sqlite(-wal|-shm)?|results|signing-secret|start-api-key)$/;

/** Entries of a service's data directory that are none of its own: an upload left on disk would show here. */
export function strayDataFiles(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => !DATA_DIR_ENTRIES.test(name));
}

export function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

export async function startService(opts: StartServiceOptions = {}): Promise<RunningService> {
  const ownNet = opts.fakeNet ? null : await startFakeNet();
  const net = opts.fakeNet ?? (ownNet as FakeNet);
  const ownDir = opts.dataDir ? null : await mkdtemp(join(tmpdir(), 'verimark-service-'));
  const dataDir = opts.dataDir ?? (ownDir as string);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...fakeNetEnv(net),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  };
  const child = tsxNode('server/main.ts', [], env, opts.nodeArgs, opts.cwd, opts.serviceDir);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const cleanup = async () => {
    await terminate(child, 'SIGTERM');
    await ownNet?.stop();
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
  };

  let baseUrl: string;
  try {
    baseUrl = await waitForLine(child, () => output, LISTENING);
  } catch (err) {
    await cleanup();
    throw err;
  }

  const admin = (args: string[]) => runAdmin(args, { ...env }, opts.serviceDir);
  const service: RunningService = {
    baseUrl,
    apiKey: '',
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    exitCode: () => child.exitCode,
    stop: cleanup,
    kill: () => terminate(child, 'SIGKILL'),
    admin,
  };
  try {
    service.apiKey = lastLine(await admin(['create-key', '--credits', '1000000', '--label', 'test']));
  } catch (err) {
    await cleanup();
    throw err;
  }
  return service;
}

function waitForLine(child: ChildProcess, output: () => string, line: RegExp): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => finish(new Error('the process did not start in time')), START_TIMEOUT_MS);
    const onData = () => {
      const match = line.exec(output());
      if (match?.[1]) finish(null, match[1]);
    };
    const onExit = () => finish(new Error('the process exited during start-up'));
    function finish(err: Error | null, url?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (err || !url) reject(new Error(`${err?.message}\n${output()}`));
      else resolveUrl(url);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function runAdmin(args: string[], env: NodeJS.ProcessEnv, serviceDir?: string): Promise<string> {
  const child = tsxNode('server/admin.ts', args, env, [], ROOT, serviceDir);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code === 0) done(stdout);
      else fail(new Error(`admin ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}

export interface RunningWorker {
  /** The worker's name in leases. */
  name: string;
  pid: number;
  output(): string;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
  /** SIGKILL and wait, for crash tests. */
  kill(): Promise<void>;
}

export interface StartWorkerOptions {
  /** Environment: DATABASE_URL or DATA_DIR, the network's DNS/SMTP settings, tunables. */
  env: Record<string, string>;
  /** The process's working directory (default the repository). */
  cwd?: string;
}

/** Runs `server/worker.ts` (`npm run service:worker`) and waits until it has started. */
export async function startWorker(opts: StartWorkerOptions): Promise<RunningWorker> {
  const child = tsxNode(
    'server/worker.ts',
    [],
    { ...process.env, LOG_LEVEL: 'warn', ...opts.env },
    [],
    opts.cwd,
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-200_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let name: string;
  try {
    name = await waitForLine(child, () => output, WORKER_STARTED);
  } catch (err) {
    await terminate(child, 'SIGKILL');
    throw err;
  }
  return {
    name,
    pid: child.pid ?? -1,
    output: () => output,
    stop: () => terminate(child, 'SIGTERM'),
    kill: () => terminate(child, 'SIGKILL'),
  };
}
