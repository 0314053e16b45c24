/**
 * `npm run service:worker`: verification only, no HTTP port. Takes single tasks and bulk
 * batches queued by any `npm run service` on the same database (DATABASE_URL; see
 * docs/self-hosting.md, "Running it for a team"). SIGINT/SIGTERM: stops taking work, finishes or
 * gives back the running batches, exits.
 */
import pino from 'pino';
import { loadConfigOrExit } from './config';
import { createEngine } from './engine/engine';
import { Workers } from './jobs/workers';
import { exitOnSignals } from './shutdown';
import { openStore } from './store/open';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = pino({ level: config.logLevel });
  const store = await openStore(config);
  const engine = createEngine({ ...config.engine, hostSlots: store.hostSlots }, log);
  const workers = new Workers(store, engine, config, log);
  workers.start();
  console.log(
    `Verimark worker ${workers.owner} started (${store.kind === 'postgres' ? 'Postgres' : `SQLite in ${config.dataDir}`})`,
  );

  exitOnSignals({
    log,
    stopping: 'worker stopping',
    failed: 'worker shutdown failed',
    close: () => workers.stop(config.shutdownGraceMs).then(() => store.close()),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
