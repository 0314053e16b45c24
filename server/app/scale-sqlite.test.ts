/**
 * Several processes on one SQLite file (one machine): an HTTP-only service (RUN_WORKER=0) and
 * three `npm run service:worker` processes sharing DATA_DIR, each in its own working directory,
 * against one SMTP peer that counts the conversations open at once per MX host. The per-host
 * limit holds across them through the slot table (server/store/sqlite/host-slots.ts).
 */
import { describe, expect, it } from 'vitest';
import { apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import type { RunningWorker } from '../testing/service';
import {
  expectEveryRowOnce,
  expectPerHostLimit,
  farmCsv,
  progressOf,
  useWorkerFarm,
} from '../testing/worker-farm';

const HOSTS = 6;
const PER_HOST = 8;
const farm = useWorkerFarm(HOSTS);

describe('three worker processes on one SQLite file', () => {
  it('keep the per-MX-host limit together, and take back the slots of a SIGKILLed worker', async () => {
    await farm.startWorkers(3);
    const key = await apiWithNewKey(farm.service, 10_000);
    const ROWS = 2400;
    const { text, expected } = farmCsv(farm.net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;
    await waitFor(async () => ((await progressOf(key, id)) >= 600 ? true : null), 60_000, 50);
    // Killed while it holds slots: the others take them back (its pid is gone) and finish.
    await (farm.workers.shift() as RunningWorker).kill();
    await expectEveryRowOnce(key, farm.net, id, ROWS);
    expect(await balanceOf(farm.service, key)).toBe(10_000 - ROWS + expected.unknown);
    expectPerHostLimit(farm.net, HOSTS, PER_HOST);
  }, 180_000);
});
