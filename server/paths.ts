import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where results live under DATA_DIR. Uploads have no place on disk: their batches go to the
 * database as they arrive (server/app/bulk-upload.ts).
 */
export class DataPaths {
  readonly results: string;

  constructor(readonly dataDir: string) {
    this.results = join(dataDir, 'results');
    mkdirSync(this.results, { recursive: true });
  }

  result(fileId: string): string {
    return join(this.results, `${fileId}.csv`);
  }
}
