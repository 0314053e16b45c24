/** The popup's column preselection: the shared rule's table first, then the address-like fallback. */
import { EMAIL_COLUMN_CASES } from '@verimark/contract/testing/email-column-cases';
import { describe, expect, it } from 'vitest';
import { detectEmailColumn, looksLikeEmail } from './detect-column';

describe('detectEmailColumn', () => {
  // With no address-like values, the popup picks exactly the column the service reads.
  it.each(EMAIL_COLUMN_CASES.filter((c) => c.requested === undefined))('$why', ({ header, index }) => {
    expect(
      detectEmailColumn(
        header,
        header.map(() => 0),
      ),
    ).toBe(index);
  });
  it('names win over address-like values', () => {
    expect(detectEmailColumn([' email', 'Work', 'Email '], [9, 9, 0])).toBe(2);
  });
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
