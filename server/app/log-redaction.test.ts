/**
 * redactedUrl: download URLs lose their query in the logs, other URLs stay as they are.
 */
import { describe, expect, it } from 'vitest';
import { redactedUrl } from './log-redaction';

describe('redactedUrl', () => {
  it("drops a download URL's query (its expiry and signature)", () => {
    expect(redactedUrl('/downloads/0123456789abcdef01234567.csv?expires=1&signature=abc')).toBe(
      '/downloads/0123456789abcdef01234567.csv?[redacted]',
    );
  });

  it('keeps other URLs as they are', () => {
    expect(redactedUrl('/verify/bulk/files?page=1&pageSize=10')).toBe(
      '/verify/bulk/files?page=1&pageSize=10',
    );
    expect(redactedUrl('/downloads/x.csv')).toBe('/downloads/x.csv');
  });
});
