/**
 * Opens the store the configuration names: Postgres when DATABASE_URL is set, else SQLite in
 * DATA_DIR.
 */
import type { ServiceConfig } from '../config';
import { openPostgresStore } from './postgres/store';
import { openSqliteStore } from './sqlite/store';
import type { Store } from './store';

/** Postgres when DATABASE_URL is set, else SQLite in DATA_DIR. */
export function openStore(config: Pick<ServiceConfig, 'databaseUrl' | 'dataDir' | 'engine'>): Promise<Store> {
  if (config.databaseUrl) return openPostgresStore(config.databaseUrl, config.engine.perHostConcurrency);
  return Promise.resolve(openSqliteStore(config.dataDir, config.engine.perHostConcurrency));
}
