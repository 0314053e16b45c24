/**
 * Several processes on one SQLite file (one machine): an HTTP-only service (RUN_WORKER=0) and
 * three `npm run service:worker` processes sharing DATA_DIR, each in its own working directory,
 * against one SMTP peer that counts the conversations open at once per MX host. The per-host
 * limit holds across them through the slot table (server/store/sqlite/host-slots.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { type FarmNet, startFarmNet } from '../testing/farm-net';
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
let dataDir: string;
const dirs = tempDirs();
let service: RunningService;
let workers: RunningWorker[] = [];

async function newWorker(): Promise<RunningWorker> {
  return startWorker({
    env: { ...net.env(), ...WORKER_TUNING, DATA_DIR: dataDir },
    cwd: await dirs.ownDir(),
  });
}

beforeAll(async () => {
  net = await startFarmNet(HOSTS, 120);
  dataDir = await dirs.ownDir();
  service = await startService({
    dataDir,
    cwd: await dirs.ownDir(),
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

describe('three worker processes on one SQLite file', () => {
  it('keep the per-MX-host limit together, and take back the slots of a SIGKILLed worker', async () => {
    workers = await Promise.all([newWorker(), newWorker(), newWorker()]);
    const key = await apiWithNewKey(service, 10_000);
    const ROWS = 2400;
    const { text, expected } = farmCsv(net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;
    await waitFor(async () => ((await progressOf(key, id)) >= 600 ? true : null), 60_000, 50);
    // Killed while it holds slots: the others take them back (its pid is gone) and finish.
    await (workers.shift() as RunningWorker).kill();
    await expectEveryRowOnce(key, net, id, ROWS);
    expect(await balanceOf(service, key)).toBe(10_000 - ROWS + expected.unknown);
    expectPerHostLimit(net, HOSTS, PER_HOST);
  }, 180_000);
});
