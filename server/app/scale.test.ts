/**
 * Several processes on one Postgres database, as a team runs it: one HTTP-only service
 * (RUN_WORKER=0) and `npm run service:worker` processes, each in its own working directory
 * and DATA_DIR (they share nothing but the database), against one SMTP peer that counts the
 * conversations open at once per MX host.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { type FarmNet, startFarmNet } from '../testing/farm-net';
import { usePostgres } from '../testing/postgres-suite';
import { type RunningService, type RunningWorker, startService, startWorker } from '../testing/service';
import {
  expectEveryRowOnce,
  expectPerHostLimit,
  farmCsv,
  progressOf,
  tempDirs,
  WORKER_TUNING,
} from '../testing/worker-farm';

const HOSTS = 6;
const PER_HOST = 8;
let net: FarmNet;
const pg = usePostgres();
const dirs = tempDirs();
let service: RunningService;
let workers: RunningWorker[] = [];

async function newWorker(): Promise<RunningWorker> {
  const dir = await dirs.ownDir();
  return startWorker({
    env: { ...net.env(), ...WORKER_TUNING, DATABASE_URL: pg.url(), DATA_DIR: dir },
    cwd: dir,
  });
}

beforeAll(async () => {
  net = await startFarmNet(HOSTS, 120);
  const dir = await dirs.ownDir();
  service = await startService({
    databaseUrl: pg.url(),
    dataDir: dir,
    cwd: dir,
    env: { ...net.env(), ...WORKER_TUNING, RUN_WORKER: '0' },
  });
}, 120_000);
afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  workers = [];
});
afterAll(async () => {
  await service?.stop();
  await net?.stop();
  await dirs.removeAll();
});

describe('three worker processes on one Postgres database', () => {
  it('keep the per-MX-host limit together while using more than one host’s worth of capacity', async () => {
    workers = await Promise.all([newWorker(), newWorker(), newWorker()]);
    const key = await apiWithNewKey(service, 10_000);
    const ROWS = 1200;
    const { text, expected } = farmCsv(net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;
    await expectEveryRowOnce(key, net, id, ROWS);
    expect((await key.fileRecord(id))?.meta_data).toEqual(expected);

    expectPerHostLimit(net, HOSTS, PER_HOST);
  }, 120_000);

  it('lose no row and no credit when a worker is SIGKILLed mid-file five times', async () => {
    workers = await Promise.all([newWorker(), newWorker(), newWorker()]);
    const key = await apiWithNewKey(service, 10_000);
    const ROWS = 5000;
    const { text, expected } = farmCsv(net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    const progress = () => progressOf(key, id);
    for (let kill = 0; kill < 5; kill++) {
      const before = await progress();
      await waitFor(async () => ((await progress()) >= before + 150 ? true : null), 60_000, 50);
      const victim = workers.shift() as RunningWorker;
      await victim.kill();
      expect((await key.fileStatus(id)).body.data.status).toBe('processing');
      workers.push(await newWorker());
    }
    await expectEveryRowOnce(key, net, id, ROWS);
    expect(await key.fileRecord(id)).toMatchObject({
      state: 'completed',
      options: { credit_usage: ROWS, credit_refund: expected.unknown },
      meta_data: expected,
    });
    expect(await balanceOf(service, new Api(service.baseUrl, key.apiKey))).toBe(
      10_000 - ROWS + expected.unknown,
    );
  }, 180_000);
});
