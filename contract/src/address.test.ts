import { describe, expect, it } from 'vitest';
import { checkEmail, MAX_ADDRESS, normalizeDomain, normalizeEmail, parseAddress } from './address';
import { ADDRESS_CASES } from './testing/address-cases';

describe('parseAddress: the shared case table', () => {
  it.each(ADDRESS_CASES)('$input → $email', ({ input, email }) => {
    const parsed = parseAddress(input);
    if (email === null) {
      expect(parsed).toMatchObject({ ok: false, email: input.trim() });
    } else {
      const at = email.lastIndexOf('@');
      expect(parsed).toEqual({ ok: true, email, local: email.slice(0, at), domain: email.slice(at + 1) });
    }
    expect(checkEmail(input)).toEqual({ email: email ?? input.trim(), valid: email !== null });
    expect(normalizeEmail(input)).toBe(email ?? input.trim());
  });

  it('covers both decisions and every length limit', () => {
    expect(ADDRESS_CASES.filter((c) => c.email !== null).length).toBeGreaterThan(10);
    expect(ADDRESS_CASES.filter((c) => c.email === null).length).toBeGreaterThan(30);
    expect(ADDRESS_CASES.some((c) => c.email?.length === MAX_ADDRESS)).toBe(true);
  });
});

describe('parseAddress: why an address is invalid', () => {
  it.each([
    ['', 'empty'],
    ['a@example.com\n', 'control'],
    ['a@exa\u0000mple.com', 'control'],
    ['a b@example.com', 'whitespace'],
    ['bob.good.test', 'no_at'],
    ['jöhn@example.com', 'local'],
    ['dave@good.test/x', 'domain'],
    [
      `l${'l'.repeat(13)}@${['a'.repeat(63), 'a'.repeat(63), 'a'.repeat(63), 'a'.repeat(48)].join('.')}`,
      'length',
    ],
  ])('%j: %s', (input, reason) => {
    expect(parseAddress(input)).toMatchObject({ ok: false, reason });
  });
});

describe('normalizeDomain', () => {
  it('returns the ASCII domain, or null for anything that is no mail domain', () => {
    expect(normalizeDomain('Bücher.Example.')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('good.test/x')).toBeNull();
    expect(normalizeDomain('')).toBeNull();
  });

  it('answers a domain seen before as the first time, past the 1,000 it keeps and for long ones', () => {
    const first = ['Bücher.Example.', 'ACME.test', 'acme.test', 'good.test/x', 'a.1'].map(normalizeDomain);
    for (let i = 0; i < 1_500; i++) expect(normalizeDomain(`host${i}.Example`)).toBe(`host${i}.example`);
    expect(['Bücher.Example.', 'ACME.test', 'acme.test', 'good.test/x', 'a.1'].map(normalizeDomain)).toEqual(
      first,
    );
    expect(first).toEqual(['xn--bcher-kva.example', 'acme.test', 'acme.test', null, null]);
    const long = `${'a'.repeat(60)}.`.repeat(5);
    expect(normalizeDomain(long)).toBeNull(); // 305 characters: more than a domain may have
    expect(normalizeDomain(long)).toBeNull();
  });
});
