/**
 * checkSyntax decides the shared address case table as the extension does.
 */
import { ADDRESS_CASES } from '@verimark/contract/testing/address-cases';
import { describe, expect, it } from 'vitest';
import { checkSyntax } from './syntax';

describe('checkSyntax decides the shared case table as the extension does', () => {
  it.each(ADDRESS_CASES)('$input → $email', ({ input, email }) => {
    const result = checkSyntax(input);
    expect({ ok: result.ok, email: result.email }).toEqual({
      ok: email !== null,
      email: email ?? input.trim(),
    });
    if (result.ok) expect(`${result.local}@${result.domain}`).toBe(email);
  });
});
