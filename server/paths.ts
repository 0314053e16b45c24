import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where results live under DATA_DIR (`uploads` is kept empty: an upload's batches now go to the
 * database as it arrives, server/app/bulk-upload.ts).
 */
export class DataPaths {
  readonly uploads: string;
  readonly results: string;

  constructor(readonly dataDir: string) {
    this.uploads = join(dataDir, 'uploads');
    this.results = join(dataDir, 'results');
    mkdirSync(this.uploads, { recursive: true });
    mkdirSync(this.results, { recursive: true });
  }

  result(fileId: string): string {
    return join(this.results, `${fileId}.csv`);
  }
}
