import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where uploads and results live under DATA_DIR. */
export class DataPaths {
  readonly uploads: string;
  readonly results: string;

  constructor(readonly dataDir: string) {
    this.uploads = join(dataDir, 'uploads');
    this.results = join(dataDir, 'results');
    mkdirSync(this.uploads, { recursive: true });
    mkdirSync(this.results, { recursive: true });
  }

  /** An upload's batches while it is received (server/jobs/split-upload.ts); removed after. */
  upload(fileId: string): string {
    return join(this.uploads, `${fileId}.batches`);
  }

  result(fileId: string): string {
    return join(this.results, `${fileId}.csv`);
  }
}
