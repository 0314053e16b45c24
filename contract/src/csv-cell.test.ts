import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, neutraliseCell } from './csv-cell';

describe('neutraliseCell', () => {
  it.each([
    '=1+1',
    '+SUM(A1)',
    '-A1',
    '@SUM(A1)',
    '\t=cmd',
    '\t5',
    '\r=1',
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.test","x")',
    '+1 415 555 0101 =A1',
    '-2+3*A1',
    '=1',
  ])('quotes %j', (cell) => {
    expect(neutraliseCell(cell)).toBe(`'${cell}`);
  });

  it.each([
    '',
    'ann@example.com',
    '5',
    '-5',
    '-3.25',
    '+1 415 555 0101',
    '+44 (0)20 7946 0958',
    '-',
    '+',
    '01/02/2026',
    ' =1',
    "'=1",
    'a=b',
    '\n=1',
    'x;=2+5',
  ])('leaves %j byte for byte', (cell) => {
    expect(neutraliseCell(cell)).toBe(cell);
  });
});

describe('csvCell', () => {
  it('quotes a cell holding ; or TAB (Excel in a semicolon locale splits at ;)', () => {
    expect(csvCell("x;=2+5+cmd|' /C calc'!A0")).toBe(`"x;=2+5+cmd|' /C calc'!A0"`);
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('\t=cmd')).toBe(`"'\t=cmd"`);
  });

  it('leaves phone and negative numbers unquoted and unchanged', () => {
    expect(csvCell('+1 415 555 0101')).toBe('+1 415 555 0101');
    expect(csvCell('-5')).toBe('-5');
  });

  it('neutralises =HYPERLINK and quotes its inner quotes and comma', () => {
    expect(csvCell('=HYPERLINK("http://evil.test","x")')).toBe(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
  });
});

const PIECES = [
  '',
  'a',
  ' ',
  '"',
  ',',
  '\r',
  '\n',
  '\uFEFF',
  '=',
  '+',
  '-',
  '@',
  '\t',
  'é',
  ';',
  "'",
  'x y',
  '5',
  '(',
];

describe('csvLine', () => {
  it('writes what papaparse writes after neutralising, with ; and TAB cells quoted as well', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      const cells = Array.from({ length: 1 + (next() % 5) }, () =>
        Array.from({ length: next() % 4 }, () => PIECES[next() % PIECES.length]).join(''),
      );
      const safe = cells.map(neutraliseCell);
      const papa = Papa.unparse([safe], { newline: '\r\n', quotes: safe.map((c) => /[;\t]/.test(c)) });
      expect(csvLine(cells)).toBe(`${papa}\r\n`);
      expect(Papa.parse<string[]>(csvLine(cells), { delimiter: ',' }).data[0]).toEqual(
        safe.length === 1 && safe[0] === '' ? [''] : safe,
      );
    }
  });
});
