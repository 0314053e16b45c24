import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { type FileJobDeps, processFile } from './process-file';

/**
 * Runs open files (pending, or processing when the service stopped) a few at a time, oldest
 * first. All state is in the database: `kick()` after an upload or at start-up is enough.
 */
export class BulkWorker {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly deps: FileJobDeps,
    private readonly concurrency: number,
  ) {}

  kick(): void {
    if (this.stopping) return;
    for (const id of this.deps.files.openIds()) {
      if (this.running.size >= this.concurrency) return;
      if (this.running.has(id)) continue;
      const run = this.run(id).finally(() => {
        this.running.delete(id);
        setImmediate(() => this.kick());
      });
      this.running.set(id, run);
    }
  }

  private async run(id: string): Promise<void> {
    try {
      const outcome = await processFile(this.deps, id, () => this.stopping);
      this.deps.log.info({ fileId: id, outcome }, 'bulk file run ended');
    } catch (err) {
      if (this.stopping) return; // left processing; resumed at the next start
      this.deps.log.error({ err, fileId: id }, 'bulk file failed');
      this.deps.files.fail(id, err instanceof Error ? err.message : String(err));
      await rm(this.deps.paths.upload(id), { force: true });
    }
  }

  /** Stops after the current batches; unfinished files resume at the next start. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    await Promise.race([Promise.allSettled(this.running.values()), delay(graceMs)]);
  }
}
