import { describe, expect, it } from 'vitest';
import { neutraliseCell } from '../csv/formula';
import { toCsvLines } from '../csv/rows';
import { csvLine } from './verify-batch';

const PIECES = ['', 'a', ' ', '"', ',', '\r', '\n', '\uFEFF', '=', '+', '-', '@', '\t', 'é', ';', "'", 'x y'];

describe('csvLine', () => {
  it('writes exactly what papaparse writes, after neutralising formula cells', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      const cells = Array.from({ length: 1 + (next() % 5) }, () =>
        Array.from({ length: next() % 4 }, () => PIECES[next() % PIECES.length]).join(''),
      );
      expect(csvLine(cells)).toBe(toCsvLines([cells.map(neutraliseCell)]));
    }
  });
});
