/**
 * AppContext: what every route needs (configuration, store, the workers' kicks, the signing
 * secret), built once per service by buildApp.
 */
import type { ServiceConfig } from '../config';
import type { DataPaths } from '../paths';
import type { FileStore, KeyStore, Store, TaskStore } from '../store/store';

/** What the routes need, built once per service by buildApp. */
export interface AppContext {
  config: ServiceConfig;
  paths: DataPaths;
  store: Store;
  keys: KeyStore;
  tasks: TaskStore;
  files: FileStore;
  /** Tells this process's worker (if it runs one) that a task was queued; others poll. */
  kickSingles(): void;
  /** Tells this process's worker (if it runs one) that a file was queued; others poll. */
  kickFiles(): void;
  /** Stops this process's verifications of a deleted file at once (others notice at their next lease renewal). */
  stopFile(id: string): void;
  signingSecret: string;
}
