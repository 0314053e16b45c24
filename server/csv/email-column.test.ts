/**
 * findEmailColumn: the default `Email`, exact before case-insensitive matches, duplicates, BOM and
 * spaces, no substrings.
 */
import { describe, expect, it } from 'vitest';
import { emailCell, findEmailColumn, isValidColumnName } from './email-column';

describe('findEmailColumn', () => {
  it('defaults to a column named Email', () => {
    expect(findEmailColumn(['Name', 'Email', 'Phone'])).toBe(1);
    expect(findEmailColumn(['Name', 'Email', 'Phone'], '')).toBe(1);
    expect(findEmailColumn(['Name', 'Phone'])).toBe(-1);
  });

  it('prefers an exact match over a case-insensitive one', () => {
    expect(findEmailColumn(['email', 'Email'])).toBe(1);
    expect(findEmailColumn(['EMAIL', 'Name'])).toBe(0);
    expect(findEmailColumn(['Work email', 'work EMAIL'], 'work EMAIL')).toBe(1);
    expect(findEmailColumn(['Work email', 'x'], 'WORK EMAIL')).toBe(0);
  });

  it('takes the first of duplicate headers', () => {
    expect(findEmailColumn(['Email', 'Name', 'Email'])).toBe(0);
  });

  it('ignores a BOM and surrounding spaces', () => {
    expect(findEmailColumn(['\uFEFFEmail', 'Name'])).toBe(0);
    expect(findEmailColumn(['Name', ' Email '])).toBe(1);
    expect(findEmailColumn(['Name', 'Contact'], ' Contact ')).toBe(1);
  });

  it('does not match substrings', () => {
    expect(findEmailColumn(['Emails', 'E-mail'])).toBe(-1);
  });
});

describe('isValidColumnName', () => {
  it('rejects an address given as a column name', () => {
    expect(isValidColumnName('ann@example.com')).toBe(false);
    expect(isValidColumnName('@')).toBe(false);
    expect(isValidColumnName('Email')).toBe(true);
  });
});

describe('emailCell', () => {
  it('keeps the cell as uploaded (the address rules judge it) and treats missing or blank cells as empty', () => {
    expect(emailCell(['a', ' ann@example.com '], 1)).toBe(' ann@example.com ');
    expect(emailCell(['a', 'test@iana.org\r\n'], 1)).toBe('test@iana.org\r\n');
    expect(emailCell(['a', '\r\n\t '], 1)).toBe('');
    expect(emailCell(['a'], 1)).toBe('');
    expect(emailCell(['a', '   '], 1)).toBe('');
  });
});
