/**
 * BatchBlocks fed by the counting pass: the batches hold exactly the file's rows, wide rows close
 * batches early, and at most four blocks wait to be stored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewBatch } from '../store/store';
import { detectDialect, readRows } from './rows';
import { countRows } from './scan';
import { ThreadScan } from './scan-thread';
import { BatchBlocks } from './split-upload';

const dir = mkdtempSync(join(tmpdir(), 'verimark-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** `text` as an upload arrives: bytes in chunks of `size` (cutting characters and rows). */
const arriving = (text: string, size: number) => {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
};

/** Every data row of a file read from disk (the way the batches were made before: a second pass). */
async function rowsFromDisk(text: string): Promise<string[][]> {
  const path = join(dir, `${n++}.csv`);
  writeFileSync(path, text);
  const out: string[][] = [];
  for await (const row of readRows(path, await detectDialect(path))) out.push(row);
  return out.slice(1);
}

/** BatchBlocks whose blocks are all taken at once, and the batches they held. */
function collecting(batchRows: number) {
  const blocks: NewBatch[][] = [];
  const sink: BatchBlocks = new BatchBlocks(batchRows, (block) => {
    blocks.push(block);
    queueMicrotask(() => sink.stored());
  });
  return { sink, blocks, batches: () => blocks.flat() };
}

describe('BatchBlocks fed by the counting pass', () => {
  const text = [
    'Name;Email;Note',
    ...Array.from({ length: 23 }, (_, i) => `P${i};p${i}@x.test;"a ""quoted""\nnote ${i} é"`),
    ';;',
    'Last;last@x.test;',
    '',
  ].join('\r\n');

  it('hands over exactly the rows a second read of the file gives, in batches of batchRows', async () => {
    const { sink, batches } = collecting(10);
    const counts = await countRows(arriving(text, 7), sink);
    expect(sink.finish()).toBe(3);
    expect(counts).toMatchObject({ header: ['Name', 'Email', 'Note'], filled: [24, 24, 23] });
    expect(batches().map((b) => [b.firstRow, b.rowCount])).toEqual([
      [0, 10],
      [10, 10],
      [20, 4],
    ]);
    const stored = batches().flatMap((b) => JSON.parse(b.input) as string[][]);
    expect(stored).toEqual(await rowsFromDisk(text));
    expect(stored[3]).toEqual(['P3', 'p3@x.test', 'a "quoted"\nnote 3 é']);
    for (const b of batches()) expect((JSON.parse(b.input) as string[][]).length).toBe(b.rowCount);
  });

  it('closes a batch early when its rows are wide, and hands over blocks of about 1 MiB', async () => {
    const wide = 'x'.repeat(400 * 1024);
    const lines = ['Email,Pad', ...Array.from({ length: 7 }, (_, i) => `u${i}@x.test,${wide}`)];
    const { sink, blocks, batches } = collecting(100);
    await countRows(arriving(`${lines.join('\n')}\n`, 64 * 1024), sink);
    sink.finish();
    // 512 KiB of JSON closes a batch: two rows of 400 KB reach it; two such batches, a block.
    expect(batches().map((b) => [b.firstRow, b.rowCount])).toEqual([
      [0, 2],
      [2, 2],
      [4, 2],
      [6, 1],
    ]);
    expect(blocks.map((block) => block.length)).toEqual([2, 2]);
    expect(
      batches()
        .flatMap((b) => JSON.parse(b.input) as string[][])
        .map((r) => r[0]),
    ).toEqual(Array.from({ length: 7 }, (_, i) => `u${i}@x.test`));
  });

  it('waits while four blocks are not stored yet (the database is behind)', async () => {
    const sent: NewBatch[][] = [];
    const sink = new BatchBlocks(1, (block) => sent.push(block));
    const row = ['x'.repeat(600 * 1024)];
    // Each row is a batch of ~600 KB; two batches make a block. Three blocks go without waiting.
    for (let i = 0; i < 7; i++) expect(sink.add(row)).toBeUndefined();
    expect(sent).toHaveLength(3);
    let resumed = false;
    const wait = sink.add(row)?.then(() => {
      resumed = true;
    });
    expect(sent).toHaveLength(4);
    expect(wait).toBeInstanceOf(Promise);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resumed).toBe(false);
    sink.stored();
    await wait;
    expect(resumed).toBe(true);
  });

  it('stores the blocks in order on the service thread, and drops the rest once discarded', async () => {
    const stored: NewBatch[] = [];
    const scan = new ThreadScan(2, async (block) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      stored.push(...block);
    });
    await scan.receive(arriving(text, 1000));
    expect(await scan.stored()).toBe(12);
    expect(stored.map((b) => b.firstRow)).toEqual(Array.from({ length: 12 }, (_, i) => i * 2));
    expect(stored.flatMap((b) => JSON.parse(b.input) as string[][])).toEqual(await rowsFromDisk(text));
    await scan.discard();

    // Discarded once received, while blocks still wait to be stored: they are dropped, and
    // discard() returns once no store runs.
    const big = `Email,Pad\n${Array.from({ length: 40_000 }, (_, i) => `u${i}@x.test,${'p'.repeat(100)}`).join('\n')}\n`;
    let running = 0;
    let calls = 0;
    const dropped = new ThreadScan(100, async () => {
      running++;
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 30));
      running--;
    });
    await dropped.receive(arriving(big, 64 * 1024));
    await dropped.discard();
    expect(running).toBe(0);
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(after);
    // ~4.8 MB of JSON: 4 or 5 blocks, the last ones dropped.
    expect(calls).toBeLessThan(4);
  });

  it('reports a failed store from stored()', async () => {
    const scan = new ThreadScan(2, async () => {
      throw new Error('disk full');
    });
    await scan.receive(arriving(text, 1000));
    await expect(scan.stored()).rejects.toThrow('disk full');
    await scan.discard();
  });

  it('a file without data rows has no batches', async () => {
    const { sink, batches } = collecting(10);
    await countRows(arriving('Email\n', 1000), sink);
    expect(sink.finish()).toBe(0);
    expect(batches()).toEqual([]);
  });
});
