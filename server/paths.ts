/**
 * Where results live under DATA_DIR. Uploads have no place on disk: their batches go to the
 * database as they arrive (server/app/bulk-upload.ts). Folders made here are their owner's only
 * (0700), as the data directory is.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class DataPaths {
  readonly results: string;

  constructor(readonly dataDir: string) {
    this.results = join(dataDir, 'results');
    mkdirSync(this.results, { recursive: true, mode: 0o700 });
  }

  result(fileId: string): string {
    return join(this.results, `${fileId}.csv`);
  }
}
