import { describe, expect, it } from 'vitest';
import { neutraliseCell } from './formula';

describe('neutraliseCell', () => {
  it.each(['=1+1', '+1', '-5', '@SUM(A1)', '\t=cmd', '\r=1', "=cmd|' /C calc'!A0"])('quotes %j', (cell) => {
    expect(neutraliseCell(cell)).toBe(`'${cell}`);
  });

  it.each(['', 'ann@example.com', '5', ' =1', "'=1", 'a=b', '\n=1'])('leaves %j', (cell) => {
    expect(neutraliseCell(cell)).toBe(cell);
  });
});
