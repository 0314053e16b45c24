/**
 * No free tarpit (docs/design.md §4): a domain whose 50 MX hosts accept TCP and never answer ends
 * `unknown` (refunded) within VERIFY_DEADLINE_MS, trying at most MAX_MX_HOSTS hosts, while another
 * key's single checks at a healthy domain still complete in seconds — on SQLite, and on Postgres
 * with a second worker process.
 */
import net from 'node:net';
import type { Envelope, SingleResult } from '@verimark/contract';
import { PATHS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, waitFor } from '../testing/api';
import { type FakeNet, startFakeNet } from '../testing/fake-net';
import { type FakeDns, startFakeDns } from '../testing/fake-net-dns';
import { DEAD_IP, ZONE, type ZoneEntry } from '../testing/fake-net-zone';
import { TEST_STORES, usePostgres } from '../testing/postgres-suite';
import { type RunningService, type RunningWorker, startService, startWorker } from '../testing/service';

const HOSTS = 50;
const DEADLINE_MS = 4000;
/** Loopback addresses of the silent hosts: 127.0.0.10 … 127.0.0.59. */
const silentIp = (i: number) => `127.0.0.${10 + i}`;

/** Listeners on the silent addresses (the SMTP port): they accept and never say a word. */
async function startSilentHosts(port: number) {
  const accepted: string[] = [];
  const sockets = new Set<net.Socket>();
  const servers = await Promise.all(
    Array.from({ length: HOSTS }, (_, i) => {
      const server = net.createServer((socket) => {
        accepted.push(silentIp(i));
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => sockets.delete(socket));
      });
      return new Promise<net.Server>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, silentIp(i), () => resolve(server));
      });
    }),
  );
  return {
    accepted,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** `name` with 50 MX hosts, host i at `address(i)`. */
function manyMx(name: string, address: (i: number) => string): Record<string, ZoneEntry> {
  const zone: Record<string, ZoneEntry> = {
    [name]: { mx: Array.from({ length: HOSTS }, (_, i) => ({ priority: i, exchange: `mx${i}.${name}` })) },
  };
  for (let i = 0; i < HOSTS; i++) zone[`mx${i}.${name}`] = { a: [address(i)] };
  return zone;
}

let fake: FakeNet;
let dns: FakeDns;
let silent: Awaited<ReturnType<typeof startSilentHosts>>;

beforeAll(async () => {
  fake = await startFakeNet();
  silent = await startSilentHosts(fake.smtpPort);
  dns = await startFakeDns(
    {
      ...ZONE,
      ...manyMx('fifty.test', silentIp),
      ...manyMx('refusing.test', () => DEAD_IP),
    },
    { tcp: true },
  );
});
afterAll(async () => {
  await dns?.stop();
  await silent?.stop();
  await fake?.stop();
});

async function queue(api: Api, email: string): Promise<string> {
  const reply = await api.post<Envelope<{ task_id: string }>>(PATHS.single, { email });
  if (reply.status !== 200) throw new Error(`queue ${email}: ${reply.status}`);
  return reply.body.data.task_id;
}

async function resultOf(api: Api, taskId: string): Promise<SingleResult | null> {
  const reply = await api.post<Envelope<SingleResult>>(PATHS.singleStatus, { task_id: taskId });
  return reply.body.data?.processing_status === 'completed' ? reply.body.data : null;
}

describe.each(TEST_STORES)('on %s', (store) => {
  const pg = store === 'postgres' ? usePostgres() : null;
  let service: RunningService;
  let worker: RunningWorker | null = null;

  beforeAll(async () => {
    const env = {
      DNS_SERVERS: dns.address,
      // Also the DNS timeout (two tries): generous, so a loaded machine's slow answer is no failure.
      SMTP_TIMEOUT_MS: '2000',
      VERIFY_DEADLINE_MS: String(DEADLINE_MS),
      WORKER_POLL_MS: '100',
      // The test polls every task's status often: that is not what is being limited here.
      RATE_LIMIT_PER_MIN: '100000',
    };
    service = await startService({ fakeNet: fake, env, ...(pg ? { databaseUrl: pg.url() } : {}) });
    if (pg)
      worker = await startWorker({
        env: {
          ...env,
          DATABASE_URL: pg.url(),
          SMTP_PORT: String(fake.smtpPort),
          ALLOW_PRIVATE_MX: '1',
          SMTP_HELO: 'verimark.test',
        },
      });
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await service?.stop();
  });

  it('ends a domain of 50 silent MX hosts unknown and refunded within the deadline, at most 5 hosts tried', async () => {
    const api = new Api(service.baseUrl, service.apiKey);
    const before = silent.accepted.length;
    const started = Date.now();
    const result = await api.verifyNow('someone@fifty.test');
    const took = Date.now() - started;
    expect(result).toMatchObject({ status: 'unknown', reason: 'smtp_timeout', credits_refunded: 1 });
    expect(took).toBeLessThan(DEADLINE_MS + 3000);
    const tried = silent.accepted.slice(before);
    expect(tried.length).toBeGreaterThan(0);
    expect(new Set(tried).size).toBeLessThanOrEqual(5);
  });

  it('tries at most MAX_MX_HOSTS (5) of 50 hosts that refuse connections', async () => {
    const api = new Api(service.baseUrl, service.apiKey);
    const result = await api.verifyNow('someone@refusing.test');
    expect(result).toMatchObject({ status: 'unknown', reason: 'smtp_unreachable', credits_refunded: 1 });
    const looked = new Set(dns.queries.map((q) => q.name).filter((n) => /^mx\d+\.refusing\.test$/.test(n)));
    expect([...looked].sort()).toEqual(['mx0', 'mx1', 'mx2', 'mx3', 'mx4'].map((h) => `${h}.refusing.test`));
  });

  it("lets another key's single checks through while one key's backlog sits on the tarpit", async () => {
    const flood = await apiWithNewKey(service, 100);
    const other = await apiWithNewKey(service, 10);
    const backlog = await Promise.all(
      Array.from({ length: 24 }, (_, i) => queue(flood, `user${i}@fifty.test`)),
    );
    const started = Date.now();
    const mine = await Promise.all(
      ['alice', 'bob', 'info'].map((m) => queue(other, `${m}@deliverable.test`)),
    );
    const results = await waitFor(
      async () => {
        const all = await Promise.all(mine.map((id) => resultOf(other, id)));
        return all.every((r) => r !== null) ? all : null;
      },
      30_000,
      200,
    );
    const took = Date.now() - started;
    const floodStill = (await Promise.all(backlog.map((id) => resultOf(flood, id)))).filter(
      (r) => r === null,
    );
    expect(results.map((r) => `${r?.status}/${r?.reason}`)).toEqual(
      Array(3).fill('deliverable/accepted_email'),
    );
    // Done before the backlog: under first-come-first-served they would wait for rounds of it.
    expect(floodStill.length).toBeGreaterThan(0);
    expect(took).toBeLessThan(DEADLINE_MS);
    // The backlog still ends, every one unknown and refunded.
    const flooded = await waitFor(
      async () => {
        const all = await Promise.all(backlog.map((id) => resultOf(flood, id)));
        return all.every((r) => r !== null) ? all : null;
      },
      60_000,
      1000,
    );
    // … each held to its deadline on the silent hosts (not ended early by anything else).
    expect(new Set(flooded.map((r) => `${r?.status}/${r?.reason}/${r?.credits_refunded}`))).toEqual(
      new Set(['unknown/smtp_timeout/1']),
    );
  }, 90_000);
});
