import { describe, expect, it } from 'vitest';
import { keyFingerprint, toAccountView } from './account';

describe('keyFingerprint', () => {
  it.each([
    ['vm_3f9a1c0d4e5b6a7c82xs', 'vm_…2xs'],
    ['  sk_live_abcdefghijk  ', 'sk_…ijk'],
    ['abcdefghijklmnop', 'ab…nop'],
    ['short', '…'],
    ['', ''],
  ])('%j → %j', (key, shown) => {
    expect(keyFingerprint(key)).toBe(shown);
  });
});

describe('toAccountView', () => {
  it('maps the service’s fields, and null (no /account) to null', () => {
    expect(toAccountView({ credits: 12, expires_at: null, label: 'sales' })).toEqual({
      credits: 12,
      expiresAt: null,
      label: 'sales',
    });
    expect(toAccountView(null)).toBeNull();
  });
});
