/**
 * Vitest hooks for a suite against the provider world: starts the world and the REAL service
 * pointed at it in `beforeAll` (SQLite by default, or a new database of a throwaway Postgres
 * cluster with `store: 'postgres'`), stops both in `afterAll`.
 *
 *   const suite = useProviderWorldService({ greylistWindowMs: 2000, env: { … } });
 *   it('…', async () => {
 *     const key = await suite.newKey(1000);
 *     await key.verifyNow(`ok1@${suite.world.fastDomain}`);
 *   });
 */
import { afterAll, beforeAll } from 'vitest';
import { Api, apiWithNewKey, balanceOf } from '../api';
import { type TestStore, usePostgres } from '../postgres-suite';
import { type RunningService, startService } from '../service';
import { type ProviderWorld, type ProviderWorldOptions, providerWorldEnv, startProviderWorld } from './world';

export interface WorldSuiteOptions extends ProviderWorldOptions {
  /** Extra service environment, over providerWorldEnv(world). */
  env?: Record<string, string>;
  store?: TestStore;
}

export interface WorldSuite {
  readonly world: ProviderWorld;
  readonly service: RunningService;
  /** A client with the service's test key (1,000,000 credits). */
  readonly api: Api;
  newKey(credits: number, extra?: string[]): Promise<Api>;
  balance(key: Api): Promise<number>;
}

export function useProviderWorldService(options: WorldSuiteOptions = {}): WorldSuite {
  const { env, store, ...worldOptions } = options;
  const pg = store === 'postgres' ? usePostgres() : null;
  let started: { world: ProviderWorld; service: RunningService; api: Api } | undefined;
  let world: ProviderWorld | undefined;
  const get = () => {
    if (!started) throw new Error('the world is not started yet: use it inside tests or hooks');
    return started;
  };
  beforeAll(async () => {
    world = await startProviderWorld(worldOptions);
    const service = await startService({
      env: { RATE_LIMIT_PER_MIN: '100000', ...providerWorldEnv(world), ...env },
      ...(pg ? { databaseUrl: pg.url() } : {}),
    });
    started = { world, service, api: new Api(service.baseUrl, service.apiKey) };
  }, 120_000);
  afterAll(async () => {
    await started?.service.stop();
    await world?.stop();
  });
  return {
    get world() {
      return get().world;
    },
    get service() {
      return get().service;
    },
    get api() {
      return get().api;
    },
    newKey: (credits, extra = []) => apiWithNewKey(get().service, credits, extra),
    balance: (key) => balanceOf(get().service, key),
  };
}
