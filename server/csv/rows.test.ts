/**
 * Reading CSV rows: dialects, BOM and blank lines, quoted newlines, and the bound on a row's size.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_ROW_BYTES } from '@verimark/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { detectDialect, fitRow, isBlank, RowTooLongError, readRows, toCsvLines } from './rows';
import { scanUpload } from './scan';

const dir = mkdtempSync(join(tmpdir(), 'verimark-csv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(content: string): string {
  const path = join(dir, `${n++}.csv`);
  writeFileSync(path, content);
  return path;
}

async function rows(content: string): Promise<string[][]> {
  const path = file(content);
  const out: string[][] = [];
  for await (const row of readRows(path, await detectDialect(path))) out.push(row);
  return out;
}

describe('detectDialect + readRows', () => {
  it.each([
    ['LF', 'a,b\n1,2\n', { delimiter: ',', newline: '\n' }],
    ['CRLF', 'a,b\r\n1,2\r\n', { delimiter: ',', newline: '\r\n' }],
    ['CR', 'a,b\r1,2\r', { delimiter: ',', newline: '\r' }],
    ['semicolons', 'a;b\n1;2\n', { delimiter: ';', newline: '\n' }],
    ['tabs', 'a\tb\n1\t2\n', { delimiter: '\t', newline: '\n' }],
  ])('%s', async (_name, content, dialect) => {
    expect(await detectDialect(file(content))).toEqual(dialect);
    expect(await rows(content)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('strips a BOM, skips blank lines, keeps quoted newlines', async () => {
    expect(await rows('\uFEFFEmail,Note\n\n"x@y.test","a\nb"\n  \n')).toEqual([
      ['Email', 'Note'],
      ['x@y.test', 'a\nb'],
    ]);
  });

  it('yields nothing for an empty file', async () => {
    expect(await rows('')).toEqual([]);
  });
});

describe('the row bound', () => {
  it('takes a row of exactly MAX_ROW_BYTES bytes, multi-byte characters and quoted lines included', async () => {
    // The row: `a@x.test,"` + note + `"`, the note made of 3-byte lines ("é\n").
    const fill = MAX_ROW_BYTES - 11;
    const note = `${'é\n'.repeat(Math.floor(fill / 3))}${'x'.repeat(fill % 3)}`;
    const row = `a@x.test,"${note}"`;
    expect(Buffer.byteLength(row)).toBe(MAX_ROW_BYTES);
    expect(await rows(`Email,Note\n${row}\nb@x.test,y\n`)).toEqual([
      ['Email', 'Note'],
      ['a@x.test', note],
      ['b@x.test', 'y'],
    ]);
  });

  it.each([
    ['a line of commas', `Email,Note\na@x.test${','.repeat(MAX_ROW_BYTES + 65 * 1024)}\nb@x.test,y\n`],
    ['a header of commas', `Email${','.repeat(2 * MAX_ROW_BYTES)}\na@x.test\n`],
    [
      'a quoted cell of many lines',
      `Email,Note\na@x.test,"${'a line\n'.repeat(MAX_ROW_BYTES / 6)}"\nb@x.test,y\n`,
    ],
    ['an unterminated quote', `Email,Note\na@x.test,"${'a line\n'.repeat(MAX_ROW_BYTES / 3)}`],
  ])('refuses %s longer than the bound', async (_name, content) => {
    await expect(rows(content)).rejects.toBeInstanceOf(RowTooLongError);
    expect(await scanUpload(file(content), null)).toBe('too_long');
  });

  it('keeps every row, in order, after a long quoted cell parsed in doubling steps', async () => {
    const note = 'a line\n'.repeat(50_000); // ~340 KiB, so parsed again a few times before it ends
    const tail = Array.from({ length: 20_000 }, (_, i) => [`r${i}@x.test`, `${i}`]);
    const content = `Email,Note\na@x.test,"${note}"\n${tail.map((r) => r.join(',')).join('\n')}\n`;
    expect(await rows(content)).toEqual([['Email', 'Note'], ['a@x.test', note], ...tail]);
  });
});

describe('scanUpload', () => {
  it('counts non-empty cells of the email column', async () => {
    const scan = await scanUpload(file('Name,email\nA,a@x.test\nB,\nC,  \nD,d@x.test\n'), null);
    expect(scan).toMatchObject({ header: ['Name', 'email'], emailIndex: 1, emails: 2 });
  });

  it('names the problem: no column, no header, no address', async () => {
    expect(await scanUpload(file('Name,Mail\nA,a@x.test\n'), null)).toBe('no_column');
    expect(await scanUpload(file('Name,Mail\nA,a@x.test\n'), 'Email')).toBe('no_column');
    expect(await scanUpload(file(''), null)).toBe('no_column');
    expect(await scanUpload(file('Name,Email\nA,\nB, \n'), null)).toBe('no_addresses');
  });
});

describe('fitRow and toCsvLines', () => {
  it('pads and cuts rows to the header width', () => {
    expect(fitRow(['a'], 3)).toEqual(['a', '', '']);
    expect(fitRow(['a', 'b', 'c', 'd'], 2)).toEqual(['a', 'b']);
  });

  it('writes RFC 4180 lines with quoting where needed', () => {
    expect(toCsvLines([['a', 'b,c', 'd"e', 'f\ng']])).toBe('a,"b,c","d""e","f\ng"\r\n');
    expect(toCsvLines([])).toBe('');
  });
});

describe('isBlank', () => {
  it('says what `trim() === ""` says, for every UTF-16 code unit alone, doubled and around text', () => {
    const differ: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const ch = String.fromCharCode(code);
      for (const cell of [ch, ` ${ch}\t`, `${ch}${ch}`, `a${ch}`, `${ch}a`])
        if (isBlank(cell) !== (cell.trim() === '')) differ.push(cell);
    }
    expect(differ).toEqual([]);
    expect([isBlank(''), isBlank(' \u3000\ufeff\r\n'), isBlank(' x ')]).toEqual([true, true, false]);
  });
});
