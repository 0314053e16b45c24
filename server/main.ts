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

/**
 * Whether the database holds no API key yet. The production entry points never make one
 * themselves (a key printed at start is a key in `docker logs` and journald for whoever reads
 * them): the operator makes the first with the admin command; only `npm start`, the development
 * starter, makes a demo key (scripts/start-key.mjs).
 */
async function hasNoKey(config: ServiceConfig): Promise<boolean> {
  const store = await openStore(config);
  try {
    return (await store.keys.count()) === 0;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const noKey = await hasNoKey(config);
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
  if (noKey) {
    console.log(
      'No API key yet. Create one with the admin command, on the same settings: node admin.js create-key --credits 1000 (docs/self-hosting.md, "API keys")',
    );
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
