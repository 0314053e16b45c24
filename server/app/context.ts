import type { ServiceConfig } from '../config';
import type { BulkWorker } from '../jobs/bulk-worker';
import type { SingleRunner } from '../jobs/single-runner';
import type { DataPaths } from '../paths';
import type { FileStore } from '../store/files';
import type { KeyStore } from '../store/keys';
import type { TaskStore } from '../store/tasks';

/** What the routes need, built once per service by buildApp. */
export interface AppContext {
  config: ServiceConfig;
  paths: DataPaths;
  keys: KeyStore;
  tasks: TaskStore;
  files: FileStore;
  singleRunner: SingleRunner;
  bulkWorker: BulkWorker;
  signingSecret: string;
}
