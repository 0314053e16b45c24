/**
 * POST /verify/single decides the shared address case table
 * (contract/src/testing/address-cases.ts) as the extension does.
 */
import { ADDRESS_CASES } from '@verimark/contract/testing/address-cases';
import { describe, expect, it } from 'vitest';
import { useService } from '../testing/api';

const svc = useService();

describe('POST /verify/single decides the shared address cases as the extension does', () => {
  const cases = ADDRESS_CASES.filter((c) => c.http);

  it('sends both valid and invalid cases', () => {
    expect(cases.some((c) => c.email === null)).toBe(true);
    expect(cases.some((c) => c.email !== null)).toBe(true);
  });

  it.each(cases)('$input → $email', async ({ input, email }) => {
    const result = await svc.api.verifyNow(input);
    expect(result.processing_status).toBe('completed');
    if (email === null) {
      expect([result.status, result.reason, result.checks.syntax]).toEqual([
        'undeliverable',
        'invalid_syntax',
        false,
      ]);
      expect(result.email).toBe(input.trim());
    } else {
      expect(result.reason).not.toBe('invalid_syntax');
      expect(result.checks.syntax).toBe(true);
      expect(result.email).toBe(email);
    }
  });
});
