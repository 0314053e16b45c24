import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDialect, readRows } from '../csv/rows';
import { countRows } from '../csv/scan';
import { ThreadScan } from '../csv/scan-thread';
import { BatchSpool, spoolBatches } from './split-upload';

const dir = mkdtempSync(join(tmpdir(), 'verimark-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const spoolPath = () => join(dir, `${n++}.batches`);

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

/** The batches a spool wrote, read back as an accepted upload's are. */
async function readBack(spool: BatchSpool, path: string) {
  return [...spoolBatches(path, await spool.finish())];
}

describe('BatchSpool fed by the counting pass', () => {
  const text = [
    'Name;Email;Note',
    ...Array.from({ length: 23 }, (_, i) => `P${i};p${i}@x.test;"a ""quoted""\nnote ${i} é"`),
    ';;',
    'Last;last@x.test;',
    '',
  ].join('\r\n');

  it('stores exactly the rows a second read of the file gives, in batches of batchRows', async () => {
    const path = spoolPath();
    const spool = new BatchSpool(path, 10);
    const counts = await countRows(arriving(text, 7), spool);
    const batches = await readBack(spool, path);
    expect(counts).toMatchObject({ header: ['Name', 'Email', 'Note'], filled: [24, 24, 23] });
    expect(batches.map((b) => [b.firstRow, b.rowCount])).toEqual([
      [0, 10],
      [10, 10],
      [20, 4],
    ]);
    const stored = batches.flatMap((b) => JSON.parse(b.input) as string[][]);
    expect(stored).toEqual(await rowsFromDisk(text));
    expect(stored[3]).toEqual(['P3', 'p3@x.test', 'a "quoted"\nnote 3 é']);
    for (const b of batches) expect((JSON.parse(b.input) as string[][]).length).toBe(b.rowCount);
  });

  it('closes a batch early when its rows are wide, so wide rows never gather in memory', async () => {
    const wide = 'x'.repeat(400 * 1024);
    const lines = ['Email,Pad', ...Array.from({ length: 7 }, (_, i) => `u${i}@x.test,${wide}`)];
    const path = spoolPath();
    const spool = new BatchSpool(path, 100);
    await countRows(arriving(`${lines.join('\n')}\n`, 64 * 1024), spool);
    const batches = await readBack(spool, path);
    // 512 KiB of JSON closes a batch: two rows of 400 KB reach it.
    expect(batches.map((b) => [b.firstRow, b.rowCount])).toEqual([
      [0, 2],
      [2, 2],
      [4, 2],
      [6, 1],
    ]);
    expect(batches.flatMap((b) => JSON.parse(b.input) as string[][]).map((r) => r[0])).toEqual(
      Array.from({ length: 7 }, (_, i) => `u${i}@x.test`),
    );
  });

  it('leaves nothing on disk when discarded, taken or not (the upload scan on its thread)', async () => {
    const refused = spoolPath();
    const scan = new ThreadScan(refused, 2);
    await scan.receive(arriving(text, 1000));
    // Its counts settle once the thread has finished (and closed) the spool.
    await scan.counts;
    expect(existsSync(refused)).toBe(true);
    await scan.discard();
    expect(existsSync(refused)).toBe(false);

    const taken = spoolPath();
    const other = new ThreadScan(taken, 2);
    await other.receive(arriving(text, 1000));
    expect([...(await other.batches())].length).toBe(12);
    await other.discard();
    expect(existsSync(taken)).toBe(false);
  });

  it('reads back batches longer than one read of the spool, and refuses a spool cut short', () => {
    // Lines of up to 3 MB around the 1 MiB reads: a batch may end anywhere in one, or past it.
    const lines = [0, 2_500_000, 10, 1024 * 1024 - 30, 700_000, 3_000_000, 5].map((n, i) =>
      JSON.stringify([[`é${'x'.repeat(n)}`, String(i)]]),
    );
    const path = spoolPath();
    writeFileSync(path, lines.map((line) => `${line}\n`).join(''));
    const sizes = lines.map((_, i) => i + 1);
    const batches = [...spoolBatches(path, sizes)];
    expect(batches.map((b) => b.input)).toEqual(lines);
    expect(batches.map((b) => [b.firstRow, b.rowCount])).toEqual(sizes.map((n) => [((n - 1) * n) / 2, n]));
    expect(() => [...spoolBatches(path, [...sizes, 1])]).toThrow(/shorter/);
  });

  it('a file without data rows has no batches', async () => {
    const path = spoolPath();
    const spool = new BatchSpool(path, 10);
    await countRows(arriving('Email\n', 1000), spool);
    expect(await readBack(spool, path)).toEqual([]);
  });
});
