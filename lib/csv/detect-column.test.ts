import { describe, expect, it } from 'vitest';
import { detectEmailColumn, looksLikeEmail } from './detect-column';

describe('detectEmailColumn', () => {
  it('prefers the exact header Email', () => {
    expect(detectEmailColumn(['email', 'Email', 'Work'], [5, 0, 9])).toBe(1);
  });
  it('then a case-insensitive match', () => {
    expect(detectEmailColumn(['Name', ' EMAIL ', 'Work'], [0, 0, 9])).toBe(1);
  });
  it('then the column whose values look most like addresses', () => {
    expect(detectEmailColumn(['Name', 'Contact', 'Work mail'], [0, 3, 7])).toBe(2);
  });
  it('returns -1 when nothing looks like an address', () => {
    expect(detectEmailColumn(['Name', 'City'], [0, 0])).toBe(-1);
  });
});

describe('looksLikeEmail', () => {
  it.each([
    ['ada@example.com', true],
    ['  bob@mail.example.org ', true],
    ['not an email', false],
    ['a@b', false],
    ['@example.com', false],
    ['two@@example.com', false],
  ])('%s → %s', (value, expected) => {
    expect(looksLikeEmail(value)).toBe(expected);
  });
});
