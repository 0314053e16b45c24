/**
 * Several processes on one Postgres database, as a team runs it: one HTTP-only service
 * (RUN_WORKER=0) and `npm run service:worker` processes, each in its own working directory
 * and DATA_DIR (they share nothing but the database), against one SMTP peer that counts the
 * conversations open at once per MX host.
 */
import { describe, expect, it } from 'vitest';
import { Api, apiWithNewKey, balanceOf, waitFor } from '../testing/api';
import { usePostgres } from '../testing/postgres-suite';
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
const pg = usePostgres();
const farm = useWorkerFarm(HOSTS, () => pg.url());

describe('three worker processes on one Postgres database', () => {
  it('keep the per-MX-host limit together while using more than one host’s worth of capacity', async () => {
    await farm.startWorkers(3);
    const key = await apiWithNewKey(farm.service, 10_000);
    const ROWS = 1200;
    const { text, expected } = farmCsv(farm.net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    expect(upload.status).toBe(200);
    const id = upload.body.data.file_id;
    await expectEveryRowOnce(key, farm.net, id, ROWS);
    expect((await key.fileRecord(id))?.meta_data).toEqual(expected);

    expectPerHostLimit(farm.net, HOSTS, PER_HOST);
  }, 120_000);

  it('lose no row and no credit when a worker is SIGKILLed mid-file five times', async () => {
    await farm.startWorkers(3);
    const key = await apiWithNewKey(farm.service, 10_000);
    const ROWS = 5000;
    const { text, expected } = farmCsv(farm.net, ROWS);
    const upload = await key.upload(text, { mode: 'non_catch_all' });
    const id = upload.body.data.file_id;
    const progress = () => progressOf(key, id);
    for (let kill = 0; kill < 5; kill++) {
      const before = await progress();
      await waitFor(async () => ((await progress()) >= before + 150 ? true : null), 60_000, 50);
      const victim = farm.workers.shift() as RunningWorker;
      await victim.kill();
      expect((await key.fileStatus(id)).body.data.status).toBe('processing');
      await farm.startWorkers(1);
    }
    await expectEveryRowOnce(key, farm.net, id, ROWS);
    expect(await key.fileRecord(id)).toMatchObject({
      state: 'completed',
      options: { credit_usage: ROWS, credit_refund: expected.unknown },
      meta_data: expected,
    });
    expect(await balanceOf(farm.service, new Api(farm.service.baseUrl, key.apiKey))).toBe(
      10_000 - ROWS + expected.unknown,
    );
  }, 180_000);
});
