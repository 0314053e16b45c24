/**
 * `npm run service`: the reference verification service (docs/design.md §4). Configured through
 * the environment (server/config.ts); stops gracefully on SIGINT/SIGTERM, leaving unfinished
 * work in the database for the next start.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from './app/app';
import { ConfigError, heloWarnings, isLoopback, loadConfig, type ServiceConfig, serviceUrl } from './config';
import { openStore } from './store/open';

/** Credits of the demo key created on an empty database. */
const DEMO_CREDITS = 1000;
const SHUTDOWN_TIMEOUT_MS = 15_000;

/** On an empty database, a demo key to try the service with; null otherwise. */
async function ensureDemoKey(config: ServiceConfig): Promise<string | null> {
  const store = await openStore(config);
  try {
    if ((await store.keys.count()) > 0) return null;
    return (await store.keys.create({ credits: DEMO_CREDITS, label: 'demo' })).key;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  let config: ServiceConfig;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Configuration error: ${err.message}`);
    process.exit(2);
  }
  const demoKey = await ensureDemoKey(config);
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  const url = serviceUrl({ ...config, publicBaseUrl: null }, port);

  console.log(`Verimark service listening on ${url}`);
  console.log(config.databaseUrl ? 'Database: Postgres (DATABASE_URL)' : `Data directory: ${config.dataDir}`);
  if (!config.runWorker) console.log('RUN_WORKER=0: HTTP only; run `npm run service:worker` to verify');
  for (const warning of heloWarnings(config)) console.warn(`Warning: ${warning}`);
  if (!config.publicBaseUrl && !isLoopback(config.host)) {
    console.warn(
      `Warning: PUBLIC_BASE_URL is not set while HOST is ${config.host}: download links will point at ${url}. Set PUBLIC_BASE_URL to the address clients use.`,
    );
  }
  if (demoKey) {
    console.log(`Demo API key: ${demoKey}  (${DEMO_CREDITS} credits; shown only once)`);
  } else {
    console.log('Create an API key with: npm run service:admin -- create-key --credits 1000');
  }

  // tsx relays the terminal's SIGINT, so one Ctrl-C can arrive twice: only a signal a second
  // after the first forces an exit; otherwise the close gets SHUTDOWN_TIMEOUT_MS at most.
  let closingSince = 0;
  const shutdown = (signal: string) => {
    if (closingSince > 0) {
      if (Date.now() - closingSince > 1000) process.exit(1);
      return;
    }
    closingSince = Date.now();
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
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
