/**
 * `npm run service:worker`: verification only, no HTTP port. Takes single tasks and bulk
 * batches queued by any `npm run service` on the same database (DATABASE_URL; see README
 * "Running it for a team"). SIGINT/SIGTERM: stops taking work, finishes or gives back the
 * running batches, exits.
 */
import pino from 'pino';
import { ConfigError, loadConfig, type ServiceConfig } from './config';
import { createEngine } from './engine/engine';
import { Workers } from './jobs/workers';
import { openStore } from './store/open';

const GRACE_MS = 5_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Configuration error: ${err.message}`);
    process.exit(2);
  }
  const log = pino({ level: config.logLevel });
  const store = await openStore(config);
  const engine = createEngine({ ...config.engine, hostSlots: store.hostSlots }, log);
  const workers = new Workers(store, engine, config, log);
  workers.start();
  console.log(
    `Verimark worker ${workers.owner} started (${store.kind === 'postgres' ? 'Postgres' : `SQLite in ${config.dataDir}`})`,
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker stopping');
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    workers
      .stop(GRACE_MS)
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'worker shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
