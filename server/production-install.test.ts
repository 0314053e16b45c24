/**
 * The production install of docs/self-hosting.md, done for real from the page's own blocks
 * (server/testing/doc-blocks.ts): `npm run build -w server`, the built folder copied, the
 * install block run as root with its paths moved under a temporary folder (`npm ci --omit=dev`,
 * the `verimark` user, the data folder, the one environment file, the systemd units), the units
 * checked with `systemd-analyze verify` and started as systemd would (their ExecStart, as their
 * User, in their WorkingDirectory: no systemd runs here), then the start block's admin lines —
 * doctor and the first key — and one address and one CSV verified over HTTP with that key.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, waitFor } from './testing/api';
import { docBlock, editEnvFile, substitute } from './testing/doc-blocks';
import { type FakeNet, fakeNetEnv, startFakeNet } from './testing/fake-net';
import { FAKE_DOMAINS } from './testing/fake-net-zone';
import { freePort } from './testing/free-port';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const INSTALL_TIMEOUT_MS = 25 * 60_000;
const isRoot = process.getuid?.() === 0;
/** The page's install paths, each moved under the temporary folder. */
const MOVED = ['/opt/verimark', '/etc/verimark', '/var/lib/verimark', '/etc/systemd/system'];

let tmp = '';
let paths: Record<string, string> = {};
let net: FakeNet;
let port = 0;
let userCreated = false;
const units: Unit[] = [];
/** What the install block printed, what the start block's admin lines printed. */
let startOutput = '';

interface Unit {
  name: string;
  child: ChildProcess;
  output(): string;
}

/**
 * Runs lines of a documented block with bash (errexit), from `cwd`; resolves with stdout and the
 * final working directory. Asynchronous: the test's DNS and SMTP servers answer from this process.
 */
function bash(script: string, cwd: string): Promise<{ stdout: string; cwd: string }> {
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `${script}\necho "__PWD__=$(pwd)"`], {
    cwd,
    env: { ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => {
      if (code !== 0) return fail(new Error(`${script}\nfailed (${code}):\n${stdout}\n${stderr}`));
      const at = stdout.lastIndexOf('__PWD__=');
      done({ stdout: stdout.slice(0, at), cwd: stdout.slice(at + 8).trim() });
    });
  });
}

/** A unit file's settings ([Service] keys → values; the last one wins). */
function unitSettings(file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line);
    if (match?.[1]) settings[match[1]] = match[2] ?? '';
  }
  return settings;
}

/** `systemctl enable --now NAME`, as systemd would run it: ExecStart as User, in WorkingDirectory, no inherited environment. */
async function startUnit(name: string): Promise<Unit> {
  const file = join(
    paths['/etc/systemd/system'] ?? '',
    name.replace(/@[^.]+$/, '@').replace(/(\.service)?$/, '.service'),
  );
  const unit = unitSettings(file);
  const [program = '', ...args] = (unit.ExecStart ?? '').split(/\s+/);
  const child = spawn('/usr/sbin/runuser', ['-u', unit.User ?? '', '--', program, ...args], {
    cwd: unit.WorkingDirectory,
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d));
  child.stderr?.on('data', (d: Buffer) => (output += d));
  const started: Unit = { name, child, output: () => output };
  units.push(started);
  await waitFor(
    () => (/listening on|Verimark worker \S+ started/.test(output) ? true : null),
    30_000,
    100,
    `${name} started:\n${output}`,
  );
  return started;
}

async function stopUnit(unit: Unit): Promise<number | null> {
  if (unit.child.exitCode !== null || unit.child.signalCode !== null) return unit.child.exitCode;
  const exited = new Promise<number | null>((done) => unit.child.once('exit', (code) => done(code)));
  // systemd signals the unit's main process, node itself: here the child runuser started.
  const pid = unit.child.pid ?? 0;
  const node = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  process.kill(node > 0 ? node : -pid, 'SIGTERM');
  return exited;
}

beforeAll(async () => {
  if (!isRoot) return;
  net = await startFakeNet();
  port = await freePort();
  tmp = await mkdtemp(join(tmpdir(), 'verimark-production-'));
  chmodSync(tmp, 0o755);
  paths = Object.fromEntries(MOVED.map((p) => [p, join(tmp, p)]));
  // What an installed Debian has already: /etc/systemd/system, and /opt, /var/lib as parents.
  for (const dir of ['/etc/systemd/system', '/opt', '/var/lib'])
    mkdirSync(join(tmp, dir), { recursive: true });
  userCreated = spawnSync('id', ['verimark'], { stdio: 'ignore' }).status !== 0;

  await bash(docBlock('production-build'), ROOT);
  // `rsync -a server/dist/ host:/opt/verimark/`
  cpSync(join(ROOT, 'server/dist'), paths['/opt/verimark'] ?? '', { recursive: true });
  await bash(substitute(docBlock('production-install'), paths), tmp);

  // The installed files name the same paths: moved too.
  for (const file of [
    join(paths['/etc/verimark'] ?? '', 'verimark.env'),
    join(paths['/etc/systemd/system'] ?? '', 'verimark.service'),
    join(paths['/etc/systemd/system'] ?? '', 'verimark-worker@.service'),
  ]) {
    writeFileSync(file, substitute(readFileSync(file, 'utf8'), paths));
  }
  // The operator's edit: this machine's port and address, DNS and SMTP at the test servers.
  editEnvFile(join(paths['/etc/verimark'] ?? '', 'verimark.env'), {
    ...fakeNetEnv(net),
    SMTP_HELO: 'probe.verimark.test',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
  });
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  for (const unit of units) await stopUnit(unit);
  await net?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
  if (userCreated) spawnSync('userdel', ['verimark'], { stdio: 'ignore' });
});

describe.skipIf(!isRoot)(
  'the production install of docs/self-hosting.md (as root; built JavaScript, runtime dependencies only)',
  () => {
    it('holds the runtime dependencies and none of the development tools', () => {
      const dir = paths['/opt/verimark'] ?? '';
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(pkg.devDependencies).toBeUndefined();
      expect(existsSync(join(dir, 'node_modules/fastify/package.json'))).toBe(true);
      expect(existsSync(join(dir, 'node_modules/better-sqlite3/package.json'))).toBe(true);
      for (const dev of ['tsx', 'esbuild', 'typescript', 'vitest', 'wxt', 'preact', '@verimark/contract']) {
        expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false);
      }
      // Nothing in the build loads TypeScript.
      expect(readFileSync(join(dir, 'main.js'), 'utf8')).not.toMatch(/from ["'][^"']*\.ts["']/);
    });

    it('installs the data folder, the environment file and the units with the documented owners and modes', () => {
      const data = statSync(paths['/var/lib/verimark'] ?? '');
      expect(data.mode & 0o777).toBe(0o700);
      const uid = Number(spawnSync('id', ['-u', 'verimark'], { encoding: 'utf8' }).stdout.trim());
      expect(data.uid).toBe(uid);
      const envFile = statSync(join(paths['/etc/verimark'] ?? '', 'verimark.env'));
      expect(envFile.mode & 0o777).toBe(0o640);
      const verify = spawnSync(
        'systemd-analyze',
        [
          'verify',
          ...['verimark.service', 'verimark-worker@1.service'].map((u) =>
            join(paths['/etc/systemd/system'] ?? '', u),
          ),
        ],
        { encoding: 'utf8' },
      );
      expect(`${verify.stdout}${verify.stderr}`.trim()).toBe('');
      expect(verify.status).toBe(0);
    });

    it('starts the service and a worker from their units, makes the first key the documented way and verifies over HTTP', async () => {
      // The start block: `systemctl` lines as systemd would do them, the rest with bash.
      let cwd = tmp;
      let segment: string[] = [];
      const flush = async () => {
        if (segment.length === 0) return;
        const ran = await bash(segment.join('\n'), cwd);
        startOutput += ran.stdout;
        cwd = ran.cwd;
        segment = [];
      };
      for (const line of substitute(docBlock('production-start'), paths).split('\n')) {
        const enable = /^systemctl enable --now (.+)$/.exec(line);
        if (line === 'systemctl daemon-reload') continue;
        if (enable?.[1]) {
          await flush();
          for (const name of enable[1].split(/\s+/)) await startUnit(name);
        } else segment.push(line);
      }
      await flush();
      const service = units.find((u) => u.name === 'verimark');
      expect(service).toBeDefined();
      expect(startOutput).toMatch(/^OK {3}DNS: gmail\.com has MX records/m);
      // No key in the service's log: it said how to make one, and the admin command made it.
      expect(service?.output()).toContain('No API key yet');
      expect(service?.output()).not.toMatch(/vm_[\w-]{8,}/);
      const key = startOutput.trim().split('\n').at(-1)?.trim() ?? '';
      expect(key).toMatch(/^vm_/);

      // A worker from the worker unit, on the same environment file: the same data folder.
      const worker = await startUnit('verimark-worker@1');
      expect(worker.output()).toContain(`SQLite in ${paths['/var/lib/verimark']}`);

      const api = new Api(`http://127.0.0.1:${port}`, key);
      const single = await api.verifyNow(`alice@${FAKE_DOMAINS.deliverable}`);
      expect(single.status).toBe('deliverable');
      const upload = await api.upload(
        `Email\nbob@${FAKE_DOMAINS.deliverable}\nnobody@${FAKE_DOMAINS.deliverable}\n`,
      );
      expect(upload.status).toBe(200);
      const done = await api.waitForFile(upload.body.data.file_id);
      expect(done.status).toBe('completed');
      expect(done.download_url.startsWith(`http://127.0.0.1:${port}/downloads/`)).toBe(true);
      const csv = await waitFor(async () => {
        const response = await fetch(done.download_url);
        return response.ok ? response.text() : null;
      });
      expect(csv.split(/\r?\n/)[1]).toMatch(/^bob@deliverable\.test,deliverable,/);
      expect(csv.split(/\r?\n/)[2]).toMatch(/^nobody@deliverable\.test,undeliverable,/);

      // The database is the service user's, made by the service and the admin command run as it.
      const uid = Number(spawnSync('id', ['-u', 'verimark'], { encoding: 'utf8' }).stdout.trim());
      expect(statSync(join(paths['/var/lib/verimark'] ?? '', 'verimark.sqlite')).uid).toBe(uid);

      // systemctl stop: SIGTERM, exit 0.
      for (const unit of [worker, service]) if (unit) expect(await stopUnit(unit)).toBe(0);
    }, 120_000);
  },
);
