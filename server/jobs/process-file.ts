import { type FileHandle, open, rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { RESULT_COLUMNS } from '../../lib/api/contract';
import { emailCell } from '../csv/email-column';
import { neutraliseCell } from '../csv/formula';
import { resultCells } from '../csv/result-cells';
import { fitRow, readRows, toCsvLines } from '../csv/rows';
import { TimeSlice } from '../csv/time-slice';
import type { DomainScope, Engine, VerificationResult } from '../engine/types';
import type { DataPaths } from '../paths';
import type { FileRow, FileStore, VerdictCounts } from '../store/files';
import { engineFailure } from './single-runner';

/** A file whose processing crashed the service this many times is failed (and refunded). */
export const MAX_ATTEMPTS = 3;

export interface FileJobDeps {
  files: FileStore;
  engine: Engine;
  paths: DataPaths;
  batchRows: number;
  log: FastifyBaseLogger;
}

/**
 * Processes one file from where its last committed batch ended. Each batch appends its result
 * rows at the committed byte offset, syncs, then commits rows, bytes and counts in one
 * statement; a crash between the two leaves bytes past the committed offset, which the next run
 * truncates, so no row or credit is ever counted twice.
 */
export async function processFile(
  deps: FileJobDeps,
  id: string,
  shouldStop: () => boolean,
): Promise<'completed' | 'failed' | 'stopped'> {
  const file = deps.files.start(id);
  if (file?.state !== 'processing') return 'stopped';
  if (file.attempts > MAX_ATTEMPTS) {
    deps.files.fail(id, `processing failed ${MAX_ATTEMPTS} times`);
    return 'failed';
  }
  const out = await openOutput(deps.paths.result(id), file.out_bytes);
  try {
    const run = new FileRun(deps, file, out);
    const finished = await run.process(shouldStop);
    if (!finished) return 'stopped';
    deps.files.complete(id);
    // The results keep every original column, so the upload is no longer needed.
    await rm(deps.paths.upload(id), { force: true });
    return 'completed';
  } finally {
    await out.close();
  }
}

async function openOutput(path: string, committedBytes: number): Promise<FileHandle> {
  const handle = await open(path, committedBytes > 0 ? 'r+' : 'w');
  await handle.truncate(committedBytes);
  return handle;
}

interface Pending {
  row: string[];
  result: Promise<VerificationResult | null>;
}

class FileRun {
  private offset: number;
  private readonly scope: DomainScope;
  private readonly slice = new TimeSlice();

  constructor(
    private readonly deps: FileJobDeps,
    private readonly file: FileRow,
    private readonly out: FileHandle,
  ) {
    this.offset = file.out_bytes;
    this.scope = deps.engine.newScope();
  }

  /**
   * True when every row is done, false when stopped early. Verifications run ahead of the
   * commits (up to two batches in flight, the engine bounding the real concurrency), while
   * results are written and committed strictly in row order, a batch at a time.
   */
  async process(shouldStop: () => boolean): Promise<boolean> {
    const { file } = this;
    const batchRows = this.deps.batchRows;
    let header = true;
    let skip = file.rows_done;
    const inFlight: Pending[] = [];
    for await (const row of readRows(this.deps.paths.upload(file.id), file)) {
      if (header) {
        header = false;
        if (this.offset === 0)
          await this.append([], this.line([...fitRow(row, file.header_length), ...RESULT_COLUMNS]));
        continue;
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      inFlight.push(this.start(row));
      if (inFlight.length >= 2 * batchRows) {
        if (shouldStop()) return false;
        await this.commitRows(inFlight.splice(0, batchRows));
      }
    }
    if (header) throw new Error('the uploaded file is gone or has no header');
    while (inFlight.length > 0) {
      if (shouldStop()) return false;
      await this.commitRows(inFlight.splice(0, batchRows));
    }
    return true;
  }

  private start(row: string[]): Pending {
    const email = emailCell(row, this.file.email_index);
    return { row, result: email === '' ? Promise.resolve(null) : this.verify(email) };
  }

  private async commitRows(pending: Pending[]): Promise<void> {
    const results = await Promise.all(pending.map((p) => p.result));
    // A line at a time, giving the event loop a turn every few ms: wide rows are costly.
    let text = '';
    for (const [i, p] of pending.entries()) {
      text += this.line([...fitRow(p.row, this.file.header_length), ...resultCells(results[i] ?? null)]);
      await this.slice.pause();
    }
    await this.append(results, text);
  }

  /** One CSV line, every cell neutralised against formula injection (docs/design.md §3). */
  private line(cells: string[]): string {
    return toCsvLines([cells.map(neutraliseCell)]);
  }

  private async verify(email: string): Promise<VerificationResult> {
    try {
      return await this.deps.engine.verify(email, this.file.mode, this.scope);
    } catch (err) {
      this.deps.log.error({ err, fileId: this.file.id }, 'engine failed on a row');
      return engineFailure(email);
    }
  }

  /** Writes at the committed offset, syncs, then commits the batch. */
  private async append(results: (VerificationResult | null)[], text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    await this.out.write(bytes, 0, bytes.length, this.offset);
    await this.out.datasync();
    const counts: VerdictCounts = { deliverable: 0, undeliverable: 0, unknown: 0, risky: 0 };
    for (const r of results) if (r) counts[r.status]++;
    this.deps.files.commit(this.file.id, { rows: results.length, bytes: bytes.length, counts });
    this.offset += bytes.length;
  }
}
