/**
 * The email-column rule both sides use, against one case table: the popup's preflight
 * (lib/csv/detect-column.test.ts) and the service's upload scan (server/csv/scan-column.test.ts) read
 * the same table through this module, so a change of the rule shows in one place.
 */
import { describe, expect, it } from 'vitest';
import { cleanColumnName, findEmailColumn, isValidColumnName } from './email-column';
import { EMAIL_COLUMN_CASES } from './testing/email-column-cases';

describe('findEmailColumn', () => {
  it.each(EMAIL_COLUMN_CASES)('$why', ({ header, requested, index }) => {
    expect(findEmailColumn(header, requested)).toBe(index);
  });

  it('cleans a name of a BOM and white space, and nothing else', () => {
    expect(cleanColumnName('\uFEFF Email\u00a0')).toBe('Email');
    expect(cleanColumnName('E-mail address')).toBe('E-mail address');
  });
});

describe('isValidColumnName', () => {
  it('rejects an address given as a column name', () => {
    expect(isValidColumnName('ann@example.com')).toBe(false);
    expect(isValidColumnName('@')).toBe(false);
    expect(isValidColumnName('Email')).toBe(true);
  });
});
