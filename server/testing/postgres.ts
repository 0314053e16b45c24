/**
 * A throwaway Postgres cluster for tests: Debian's binaries (/usr/lib/postgresql/<v>/bin),
 * `initdb` in a temporary folder, a free port on 127.0.0.1 only, durability off (test data),
 * stopped and removed by stop(). Postgres refuses to run as root: as root, the cluster belongs
 * to the `postgres` user and its commands run through `runuser`. When the binaries are missing
 * and we are root, `postgresql` is installed with apt (serialised by /tmp/apt.lock).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

const ROOT_DIR = '/usr/lib/postgresql';
const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function binDir(): string | null {
  if (!existsSync(ROOT_DIR)) return null;
  const versions = readdirSync(ROOT_DIR)
    .filter((v) => existsSync(join(ROOT_DIR, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(ROOT_DIR, versions[0], 'bin') : null;
}

/** The binaries' folder, installing Debian's `postgresql` when missing and running as root. */
export function postgresBinaries(): string {
  const found = binDir();
  if (found) return found;
  if (!isRoot()) {
    throw new Error(
      'Postgres binaries not found: sudo apt-get install -y --no-install-recommends postgresql (tests install it themselves as root)',
    );
  }
  const apt = (args: string[]) =>
    execFileSync('flock', ['/tmp/apt.lock', 'apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    apt(['install', '-y', '--no-install-recommends', 'postgresql']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'postgresql']);
  }
  const installed = binDir();
  if (!installed) throw new Error('postgresql was installed but no initdb was found');
  return installed;
}

export interface PgCluster {
  /** `postgres://postgres@127.0.0.1:<port>/<db>`. */
  url(database?: string): string;
  /** A new empty database; its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PgCluster> {
  const bin = postgresBinaries();
  const dir = await mkdtemp(join(tmpdir(), 'verimark-pg-'));
  const asOwner = (cmd: string, args: string[]) =>
    isRoot()
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, cmd), args, { stdio: 'pipe' });
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    asOwner('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    asOwner('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`could not start Postgres: ${err instanceof Error ? err.message : err}\n${stderr}`);
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let databases = 0;
  return {
    url,
    async createDatabase() {
      const name = `verimark_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      try {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
