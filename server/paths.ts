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

  upload(fileId: string): string {
    return join(this.uploads, `${fileId}.csv`);
  }

  result(fileId: string): string {
    return join(this.results, `${fileId}.csv`);
  }
}
