/** The email cell of an uploaded row (the column rule itself is tested in contract/src/email-column.test.ts). */
import { describe, expect, it } from 'vitest';
import { emailCell } from './email-column';

describe('emailCell', () => {
  it('keeps the cell as uploaded (the address rules judge it) and treats missing or blank cells as empty', () => {
    expect(emailCell(['a', ' ann@example.com '], 1)).toBe(' ann@example.com ');
    expect(emailCell(['a', 'test@iana.org\r\n'], 1)).toBe('test@iana.org\r\n');
    expect(emailCell(['a', '\r\n\t '], 1)).toBe('');
    expect(emailCell(['a'], 1)).toBe('');
    expect(emailCell(['a', '   '], 1)).toBe('');
  });
});
