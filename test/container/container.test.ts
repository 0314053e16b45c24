/**
 * The shipped Dockerfile and compose.yaml, built and run with podman (scripts/container-check.mjs
 * prepares the base images and runs this file): the image's own settings, then the image alone —
 * key made with the admin command inside the container, one address and one CSV through its port,
 * the HEALTHCHECK, a clean exit on SIGTERM — then the compose stack (HTTP service with RUN_WORKER=0,
 * two workers, Postgres) doing the same through the service while the workers verify.
 *
 * Containers use the host's network: the test's DNS and SMTP servers (server/testing/fake-net.ts)
 * listen on 127.0.0.1 only, which a container on a bridge network cannot reach; the service
 * listens on 127.0.0.1 as well (HOST), on a free port.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, waitFor } from '../../server/testing/api';
import { docBlock, editEnvFile } from '../../server/testing/doc-blocks';
import { type FakeNet, fakeNetEnv, startFakeNet } from '../../server/testing/fake-net';
import { FAKE_DOMAINS } from '../../server/testing/fake-net-zone';
import { freePort } from '../../server/testing/free-port';

const ROOT = resolve(import.meta.dirname, '../..');
const BASE_IMAGE = process.env.VERIMARK_TEST_BASE_IMAGE ?? '';
const POSTGRES_IMAGE = process.env.VERIMARK_TEST_POSTGRES_IMAGE ?? '';
const RUN_ID = `${process.pid}-${randomBytes(3).toString('hex')}`;
const IMAGE = `localhost/verimark-test-service:${RUN_ID}`;
const PROJECT = `verimark-test-${RUN_ID}`;
const SERVICES = ['postgres', 'service', 'worker-1', 'worker-2'];

interface ImageConfig {
  User?: string;
  Volumes?: Record<string, unknown>;
  ExposedPorts?: Record<string, unknown>;
  Env?: string[];
  Cmd?: string[];
  Healthcheck?: { Test?: string[] };
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function sh(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; check?: boolean; cwd?: string } = {},
): Ran {
  const result = spawnSync(cmd, args, {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...opts.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ran = { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  if (opts.check !== false && ran.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${ran.status}):\n${ran.stdout}\n${ran.stderr}`);
  }
  return ran;
}

const podman = (args: string[], check = true) => sh('podman', args, { check });

/** The fake network's settings, with timeouts for a container on a busy machine. */
function netEnv(net: FakeNet): Record<string, string> {
  return { ...fakeNetEnv(net), SMTP_TIMEOUT_MS: '5000', LOG_LEVEL: 'info' };
}

async function healthy(baseUrl: string): Promise<void> {
  await waitFor(
    async () => {
      const response = await fetch(`${baseUrl}/healthz`).catch(() => null);
      return response?.ok ? true : null;
    },
    120_000,
    250,
    `${baseUrl}/healthz`,
  );
}

/** One address and one two-row CSV through HTTP, as the production-install test does. */
async function verifiesThroughHttp(api: Api): Promise<void> {
  const single = await api.verifyNow(`alice@${FAKE_DOMAINS.deliverable}`);
  expect(single.status).toBe('deliverable');
  const upload = await api.upload(
    `Email\nbob@${FAKE_DOMAINS.deliverable}\nnobody@${FAKE_DOMAINS.deliverable}\n`,
  );
  expect(upload.status).toBe(200);
  const done = await api.waitForFile(upload.body.data.file_id, 120_000);
  expect(done.status).toBe('completed');
  const csv = await waitFor(async () => {
    const response = await fetch(done.download_url);
    return response.ok ? response.text() : null;
  });
  const lines = csv.split(/\r?\n/);
  expect(lines[1]).toMatch(/^bob@deliverable\.test,deliverable,/);
  expect(lines[2]).toMatch(/^nobody@deliverable\.test,undeliverable,/);
}

/** The key printed alone on the admin command's last line. */
function keyFrom(out: string): string {
  const key = out.trim().split('\n').at(-1)?.trim() ?? '';
  expect(key).toMatch(/^\S{16,}$/);
  return key;
}

let net: FakeNet;

beforeAll(async () => {
  if (!BASE_IMAGE || !POSTGRES_IMAGE) {
    throw new Error('run through scripts/container-check.mjs, which makes the base images');
  }
  net = await startFakeNet();
  podman(['build', '--format', 'docker', '--build-arg', `BASE_IMAGE=${BASE_IMAGE}`, '-t', IMAGE, '.']);
});

afterAll(async () => {
  await net?.stop();
  podman(['rmi', '--force', IMAGE], false);
});

describe('the image', () => {
  it('is configured as documented: non-root, /data a volume, port 8787, a health check on /healthz', () => {
    const [image] = JSON.parse(podman(['image', 'inspect', IMAGE]).stdout) as [
      { Config: ImageConfig; Healthcheck?: { Test?: string[] } },
    ];
    const config = image.Config;
    const healthcheck = image.Healthcheck ?? config.Healthcheck;
    expect(healthcheck?.Test?.join(' ')).toContain('/healthz');
    expect(config.User).toBe('verimark');
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(['8787/tcp']);
    expect(config.Env).toEqual(expect.arrayContaining(['HOST=0.0.0.0', 'PORT=8787', 'DATA_DIR=/data']));
    expect(config.Cmd).toEqual(['node', 'main.js']);
    // The machine's CA belongs to the local test base only, never to the shipped Dockerfile.
    expect(sh('grep', ['-c', 'NODE_EXTRA_CA_CERTS', 'Dockerfile'], { check: false }).stdout.trim()).toBe('0');
  });

  it('runs the service: admin key, one address and one CSV over HTTP, health check, clean SIGTERM', async () => {
    const port = await freePort();
    const name = `${PROJECT}-single`;
    const env = { ...netEnv(net), HOST: '127.0.0.1', PORT: String(port) };
    try {
      podman([
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
        IMAGE,
      ]);
      const baseUrl = `http://127.0.0.1:${port}`;
      await healthy(baseUrl);
      expect(podman(['exec', name, 'id', '-u']).stdout.trim()).not.toBe('0');

      const key = keyFrom(podman(['exec', name, 'node', 'admin.js', 'create-key', '--credits', '10']).stdout);
      // A fresh container's logs hold no API key: it only says how to make one.
      const logs = podman(['logs', name]);
      expect(logs.stdout + logs.stderr).toContain('No API key yet');
      expect(logs.stdout + logs.stderr).not.toMatch(/vm_[\w-]{8,}/);
      await verifiesThroughHttp(new Api(baseUrl, key));
      // The data lives in the volume: the database file is in /data.
      expect(podman(['exec', name, 'ls', '/data']).stdout).toMatch(/verimark\.sqlite/);

      expect(podman(['healthcheck', 'run', name], false).status).toBe(0);

      podman(['stop', '--time', '30', name]);
      const state = JSON.parse(podman(['inspect', '--format', '{{json .State}}', name]).stdout) as {
        ExitCode: number;
      };
      expect(state.ExitCode).toBe(0);
      expect(podman(['logs', name]).stdout + podman(['logs', name]).stderr).toMatch(/shutting down/);
    } finally {
      podman(['rm', '--force', '--volumes', name], false);
    }
  });
});

/**
 * `docker compose` as the compose blocks of docs/self-hosting.md use it, played by podman: `exec
 * SERVICE` in that service's container, `up --build` as `up --no-build` (the image was built above
 * with `--format docker`, which keeps its HEALTHCHECK; podman-compose 1.0 builds without it).
 */
const DOCKER_COMPOSE = `docker() {
  [ "$1" = compose ] || { echo "only docker compose is played here" >&2; return 2; }
  shift
  case "$1" in
    exec) shift; local service="$1"; shift; podman exec "\${PROJECT}_\${service}_1" "$@" ;;
    up) shift; local args=(); for a in "$@"; do [ "$a" = --build ] && a=--no-build; args+=("$a"); done
        podman-compose --project-name "$PROJECT" -f compose.yaml up "\${args[@]}" ;;
    *) podman-compose --project-name "$PROJECT" -f compose.yaml "$@" ;;
  esac
}
`;

describe('the compose stack', () => {
  // podman-compose 1.0 puts every container on the project's bridge network (it adds `--net` even
  // beside `network_mode: host`), where the test's DNS and SMTP servers on the host's 127.0.0.1
  // cannot be reached: here the workers verify what needs no network — addresses the rulebook
  // refuses — while the image test above covers the DNS and SMTP path. The stack is otherwise the
  // shipped compose.yaml and .env.example, set up with the docs' own commands.
  it("runs the docs' compose steps, then verifies one address and one CSV through the HTTP service while the two workers do the work", async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'verimark-compose-'));
    for (const file of ['compose.yaml', '.env.example']) copyFileSync(join(ROOT, file), join(dir, file));
    const shell = (script: string) =>
      sh('bash', ['-e', '-o', 'pipefail', '-c', `${DOCKER_COMPOSE}\n${script}`], {
        cwd: dir,
        env: { PROJECT },
      });
    shell(docBlock('compose-env'));
    // The operator's edit of .env: download links on the test's port, DNS on a port where nothing
    // answers (so that nothing leaves the stack), the images made for this run.
    editEnvFile(join(dir, '.env'), {
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      VERIMARK_PORT: `127.0.0.1:${port}`,
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DNS_SERVERS: '127.0.0.1:9',
      LOG_LEVEL: 'info',
      VERIMARK_IMAGE: IMAGE,
      POSTGRES_IMAGE,
    });
    const container = (service: string) => `${PROJECT}_${service}_1`;
    const logs = (service: string) => {
      const ran = podman(['logs', container(service)], false);
      return ran.stdout + ran.stderr;
    };
    try {
      const ran = shell(docBlock('compose-up'));
      const key = /^(vm_\S+)$/m.exec(ran.stdout)?.[1] ?? '';
      expect(key).toMatch(/^vm_\S{16,}$/);
      const baseUrl = `http://127.0.0.1:${port}`;
      try {
        await healthy(baseUrl);
      } catch (err) {
        for (const service of ['postgres', 'service', 'worker-1'])
          console.log(`--- ${service}\n${logs(service)}`);
        throw err;
      }
      expect(logs('service')).toMatch(/RUN_WORKER=0: HTTP only/);
      // Settings from .env reached the containers; no key reached their logs.
      expect(podman(['exec', container('service'), 'printenv', 'DNS_SERVERS']).stdout.trim()).toBe(
        '127.0.0.1:9',
      );
      for (const worker of ['worker-1', 'worker-2']) {
        await waitFor(
          () => (/Verimark worker \S+ started \(Postgres\)/.test(logs(worker)) ? true : null),
          60_000,
          500,
          `${worker} started`,
        );
      }
      for (const service of SERVICES) expect(logs(service), service).not.toContain(key);

      const api = new Api(baseUrl, key);
      const single = await api.verifyNow('alice.example.test');
      expect(single).toMatchObject({ status: 'undeliverable', reason: 'invalid_syntax' });
      const upload = await api.upload('Email\nbob@@deliverable.test\nno address here\n');
      expect(upload.status).toBe(200);
      const done = await api.waitForFile(upload.body.data.file_id, 120_000);
      expect(done.status).toBe('completed');
      const csv = await waitFor(async () => {
        const response = await fetch(done.download_url);
        return response.ok ? response.text() : null;
      });
      const lines = csv.split(/\r?\n/);
      expect(lines[1]).toMatch(/^bob@@deliverable\.test,undeliverable,invalid_syntax\b/);
      expect(lines[2]).toMatch(/^no address here,undeliverable,invalid_syntax\b/);

      for (const service of SERVICES) {
        expect(podman(['healthcheck', 'run', container(service)], false).status, service).toBe(0);
      }
    } finally {
      // Containers first, with their anonymous /data volumes (podman-compose 1.0's down leaves them).
      podman(['rm', '--force', '--volumes', ...SERVICES.map(container)], false);
      sh(
        'podman-compose',
        ['--project-name', PROJECT, '-f', join(dir, 'compose.yaml'), 'down', '--volumes'],
        {
          check: false,
        },
      );
      podman(['volume', 'rm', '--force', `${PROJECT}_postgres-data`], false);
      podman(['network', 'rm', '--force', `${PROJECT}_default`], false);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
