/**
 * An upload's data rows split into batches as it is parsed — at upload time, on the scanner's
 * thread, not by a job — and handed to the database in blocks (BatchBlocks); the header of its
 * results CSV.
 */
import { RESULT_COLUMNS } from '@verimark/contract';
import { csvLine } from '@verimark/contract/csv-cell';
import type { NewBatch } from '../store/store';

/**
 * A batch is closed early once its cells reach about this many characters (of JSON), so wide rows (cells of
 * hundreds of KB) never gather in memory: the batch in the making stays about this small.
 */
const BATCH_CHARS = 512 * 1024;
/** Batches are handed to the database in blocks of about this many characters (one transaction each). */
const BLOCK_CHARS = 1024 * 1024;
/**
 * Blocks handed over and not yet stored before the parse waits (the database is behind). Four,
 * not two: the service's thread also reads the request (and collects garbage), and with two the
 * parse waited on it now and then — 205 against 215 ms for a 23 MB upload, alternating, load ~1.7.
 */
const BLOCKS_IN_FLIGHT = 4;

/**
 * An upload's data rows split into batches of `batchRows` (the units workers claim; fewer when
 * the rows are wide, see BATCH_CHARS) as the upload is parsed: the same pass that counts its
 * credits (server/csv/scan.ts) hands every data row here, so the file is never read twice. Each
 * batch is serialised at once (its cells as JSON) and batches are handed on in blocks of about
 * BLOCK_CHARS (`send`: to the service's thread, which stores each block under the file, still
 * `receiving`, while the rest arrives). At most BLOCKS_IN_FLIGHT blocks wait to be stored
 * (stored() reports one done), so a large upload holds a few MB at most however fast it comes.
 */
export class BatchBlocks {
  /** The batch in the making and the characters of its cells. */
  private current: string[][] = [];
  private chars = 0;
  private block: NewBatch[] = [];
  private blockChars = 0;
  private firstRow = 0;
  private batches = 0;
  private inFlight = 0;
  private wake: (() => void) | null = null;

  constructor(
    private readonly batchRows: number,
    private readonly send: (block: NewBatch[]) => void,
  ) {}

  /**
   * Adds a data row; resolves when more may come (a promise only when a block was handed over
   * and too many wait to be stored, so the parse of an upload makes none per row).
   */
  add(row: string[]): Promise<void> | undefined {
    this.current.push(row);
    for (const cell of row) this.chars += cell.length + 3;
    if (this.current.length < this.batchRows && this.chars < BATCH_CHARS) return undefined;
    this.closeBatch();
    if (this.blockChars < BLOCK_CHARS) return undefined;
    this.sendBlock();
    return this.inFlight < BLOCKS_IN_FLIGHT ? undefined : this.room();
  }

  /** A block was stored: one more may be handed over. */
  stored(): void {
    this.inFlight--;
    this.wake?.();
    this.wake = null;
  }

  /** Hands over the batch and block in the making; the number of batches in all. */
  finish(): number {
    if (this.current.length > 0) this.closeBatch();
    if (this.block.length > 0) this.sendBlock();
    return this.batches;
  }

  private closeBatch(): void {
    const input = JSON.stringify(this.current);
    this.block.push({ firstRow: this.firstRow, rowCount: this.current.length, input });
    this.blockChars += input.length;
    this.firstRow += this.current.length;
    this.batches++;
    this.current = [];
    this.chars = 0;
  }

  private sendBlock(): void {
    this.inFlight++;
    this.send(this.block);
    this.block = [];
    this.blockChars = 0;
  }

  private room(): Promise<void> {
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.inFlight < BLOCKS_IN_FLIGHT) resolve();
        else this.wake = check;
      };
      check();
    });
  }
}

/** The result file's first line: the upload's header, then the result columns. */
export function resultHeaderOf(header: string[]): string {
  return csvLine([...header, ...RESULT_COLUMNS]);
}
