/**
 * buildApp: the service as a Fastify instance — configuration, store, engine and workers wired
 * together, the limits before and after the door, every route, and the periodic sweeps (uploads
 * left unfinished, RETENTION_DAYS).
 */
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { API_KEY_HEADER } from '@verimark/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServiceConfig } from '../config';
import { createEngine } from '../engine/engine';
import type { Engine } from '../engine/types';
import { Workers } from '../jobs/workers';
import { DataPaths } from '../paths';
import { openStore } from '../store/open';
import { purgeOlderThan } from '../store/retention';
import type { Store } from '../store/store';
import { accountRoute } from './account-route';
import { authenticate } from './auth';
import { bulkRoutes } from './bulk-routes';
import { bulkUploadRoute } from './bulk-upload';
import type { AppContext } from './context';
import { deleteFileRoute } from './delete-file-route';
import { DOOR_LIMIT_PER_MIN, installDoorLimit } from './door-limit';
import { downloadRoute } from './download-route';
import { installErrorHandlers } from './errors';
import { loggerOptions } from './log-redaction';
import { ServiceMetrics } from './metrics';
import { opsRoutes } from './ops-routes';
import { removeOrphanUploads } from './receiving-cleanup';
import { singleRoutes } from './single-routes';

/** How often the service looks for uploads left unfinished by a stopped process. */
const ORPHAN_SWEEP_MS = 5 * 60_000;
/** How often the service removes finished work older than RETENTION_DAYS. */
const RETENTION_SWEEP_MS = 60 * 60_000;

/**
 * HTTP timeouts (docs/self-hosting.md, "Settings"): a whole request, body included, gets 5
 * minutes (a 25 MB upload at ~0.7 Mbit/s); its headers 30 s; a connection silent for 60 s is
 * closed.
 */
export const HTTP_TIMEOUTS = { requestMs: 300_000, headersMs: 30_000, idleMs: 60_000 } as const;

interface BuildOptions {
  /** Another engine (defaults to the real one built from config.engine). */
  engine?: Engine;
  /** Fastify logger option (defaults to pino at config.logLevel). */
  logger?: boolean;
  /** An open store (defaults to the one config names); the app closes it when it closes. */
  store?: Store;
}

/**
 * The whole service as a Fastify instance: store, workers (unless RUN_WORKER=0) and routes.
 * Workers start when the app is ready and stop (leaving unfinished work in the database) when
 * it closes.
 */
export async function buildApp(config: ServiceConfig, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : loggerOptions(config.logLevel),
    // Only the proxies TRUST_PROXY names may set the client address (never `true` or a hop count).
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    requestTimeout: HTTP_TIMEOUTS.requestMs,
    connectionTimeout: HTTP_TIMEOUTS.idleMs,
  });
  app.server.headersTimeout = HTTP_TIMEOUTS.headersMs;
  const store = opts.store ?? (await openStore(config));
  const paths = new DataPaths(config.dataDir);
  const metrics = new ServiceMetrics(() => store.queueDepth());
  const engine = metrics.observeEngine(
    opts.engine ??
      createEngine({ ...config.engine, hostSlots: config.engine.hostSlots ?? store.hostSlots }, app.log, {
        onProbe: metrics.onProbe,
      }),
  );
  const workers = config.runWorker ? new Workers(store, engine, config, app.log) : null;
  const ctx: AppContext = {
    config,
    paths,
    store,
    keys: store.keys,
    tasks: store.tasks,
    files: store.files,
    kickSingles: () => workers?.singles.kick(),
    kickFiles: () => workers?.batches.kick(),
    stopFile: (id) => workers?.batches.cancelFile(id),
    signingSecret: await store.signingSecret(config.signingSecret),
  };

  app.decorateRequest('account', null);
  installErrorHandlers(app);
  metrics.instrument(app);
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['content-type', API_KEY_HEADER],
    exposedHeaders: ['retry-after', 'content-disposition'],
    maxAge: 86_400,
  });
  // Before the door: failed requests per client address, ahead of any key lookup.
  installDoorLimit(app, DOOR_LIMIT_PER_MIN);
  // After it: an authenticated request counts against its key (never a header value the client
  // made up), any other (downloads, health) against its address.
  await app.register(rateLimit, {
    max: config.rateLimitPerMin,
    timeWindow: 60_000,
    hook: 'preHandler',
    keyGenerator: (request) => (request.account ? `key:${request.account.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => ({ statusCode: context.statusCode, error: 429 }),
  });
  await app.register(multipart, { throwFileSizeLimit: false });

  await app.register(async (verify) => {
    verify.addHook('onRequest', authenticate(ctx.keys));
    singleRoutes(verify, ctx);
    bulkRoutes(verify, ctx);
    bulkUploadRoute(verify, ctx);
  });
  downloadRoute(app, ctx);
  accountRoute(app, ctx);
  deleteFileRoute(app, ctx);
  opsRoutes(app, { metrics, pingDatabase: () => store.ping() });

  // Uploads left `receiving` by a process that died mid-upload: removed at start-up, then now and
  // then (a process that died while no other restarted). A file is older than any request after
  // twice the request timeout.
  const orphanAgeMs = 2 * HTTP_TIMEOUTS.requestMs;
  const sweep = () =>
    removeOrphanUploads(store.files, orphanAgeMs, app.log).catch((err: unknown) =>
      app.log.error({ err }, 'could not remove unfinished uploads'),
    );
  // Finished work older than RETENTION_DAYS: removed at start-up, then every hour.
  const expire = async () => {
    if (config.retentionDays === 0) return;
    try {
      const purged = await purgeOlderThan(store, config.dataDir, config.retentionDays);
      if (purged.files + purged.tasks > 0) app.log.info(purged, 'removed work older than RETENTION_DAYS');
    } catch (err) {
      app.log.error({ err }, 'could not remove work older than RETENTION_DAYS');
    }
  };
  let sweeper: NodeJS.Timeout | null = null;
  let expirer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    await sweep();
    await expire();
    sweeper = setInterval(() => void sweep(), ORPHAN_SWEEP_MS);
    sweeper.unref();
    expirer = setInterval(() => void expire(), RETENTION_SWEEP_MS);
    expirer.unref();
    workers?.start();
  });
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper);
    if (expirer) clearInterval(expirer);
    await workers?.stop(config.shutdownGraceMs);
    await store.close();
  });
  return app;
}
