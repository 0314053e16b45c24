/**
 * `npm run service`: the reference verification service (docs/design.md §4). Configured through
 * the environment (server/config.ts); stops gracefully on SIGINT/SIGTERM, leaving unfinished
 * work in the database for the next start.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from './app/app';
import { heloWarnings, isLoopback, loadConfigOrExit, type ServiceConfig, serviceUrl } from './config';
import { exitOnSignals } from './shutdown';
import { openStore } from './store/open';

/** Credits of the demo key created on an empty database. */
const DEMO_CREDITS = 1000;

/**
 * On an empty embedded SQLite database, a demo key to try the service with; null otherwise. Never
 * with DATABASE_URL: a shared (production) database gets its keys from `service:admin` only.
 */
async function ensureDemoKey(config: ServiceConfig): Promise<string | null> {
  if (config.databaseUrl) return null;
  const store = await openStore(config);
  try {
    if ((await store.keys.count()) > 0) return null;
    return (await store.keys.create({ credits: DEMO_CREDITS, label: 'demo' })).key;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
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

  exitOnSignals({
    log: app.log,
    stopping: 'shutting down',
    failed: 'shutdown failed',
    close: () => app.close(),
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
