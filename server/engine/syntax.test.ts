import { describe, expect, it } from 'vitest';
import { checkSyntax, MAX_ADDRESS, normalizeDomain } from './syntax';

const ok = (input: string) => {
  const result = checkSyntax(input);
  if (!result.ok) throw new Error(`expected valid: ${input}`);
  return result;
};
const invalid = (input: string) => expect(checkSyntax(input).ok, input).toBe(false);

describe('checkSyntax', () => {
  it('accepts ordinary dot-atom addresses', () => {
    expect(ok('alice@example.com')).toEqual({
      ok: true,
      email: 'alice@example.com',
      local: 'alice',
      domain: 'example.com',
    });
    ok('first.last+tag@sub.example.co.uk');
    ok("o'brien!#$%&*/=?^_`{|}~-@example.com");
    ok('x@a-b.example');
  });

  it('trims, lowercases the domain (not the local part) and drops one trailing dot', () => {
    expect(ok('  Alice@Example.COM \t').email).toBe('Alice@example.com');
    expect(ok('alice@example.com.').email).toBe('alice@example.com');
    invalid('alice@example.com..');
    invalid('alice.@example.com');
  });

  it('turns IDN domains into punycode', () => {
    expect(ok('alice@bücher.test').email).toBe('alice@xn--bcher-kva.test');
    expect(ok('alice@BÜCHER.test').domain).toBe('xn--bcher-kva.test');
    expect(ok('alice@xn--bcher-kva.test').domain).toBe('xn--bcher-kva.test');
    expect(ok('user@例え.jp').domain).toBe('xn--r8jz45g.jp');
  });

  it('refuses spaces, missing parts and misplaced dots or @', () => {
    for (const input of [
      '',
      '   ',
      'alice',
      'alice@',
      '@example.com',
      'al ice@example.com',
      'alice@exa mple.com',
      'alice@@example.com',
      'a@b@example.com',
      '.alice@example.com',
      'al..ice@example.com',
      'alice@.example.com',
      'alice@example..com',
      'alice@-example.com',
      'alice@example-.com',
      'alice@exa_mple.com',
      'alice@localhost',
      'alice@example.123',
      'alice,bob@example.com',
      'alice(comment)@example.com',
    ]) {
      invalid(input);
    }
  });

  it('refuses quoted and non-ASCII local parts and domain literals (documented decision)', () => {
    invalid('"john doe"@example.com');
    invalid('"john"@example.com');
    invalid('jöhn@example.com');
    invalid('alice@[192.0.2.1]');
  });

  it('enforces RFC 5321 lengths', () => {
    const label63 = 'a'.repeat(63);
    ok(`${'l'.repeat(64)}@example.com`);
    invalid(`${'l'.repeat(65)}@example.com`);
    ok(`alice@${label63}.com`);
    invalid(`alice@${'a'.repeat(64)}.com`);
    // 4 × 63 + 3 dots = 255 > 253
    invalid(`a@${[label63, label63, label63, label63].join('.')}`);
    // A 253-character domain is fine on its own but makes the address longer than 254.
    const domain253 = [label63, label63, label63, 'a'.repeat(61)].join('.');
    expect(domain253).toHaveLength(253);
    expect(normalizeDomain(domain253)).toBe(domain253);
    invalid(`alice@${domain253}`);
    const fits = `${'l'.repeat(MAX_ADDRESS - 1 - 240)}@${[label63, label63, label63, 'a'.repeat(48)].join('.')}`;
    expect(fits).toHaveLength(MAX_ADDRESS);
    ok(fits);
    invalid(`l${fits}`);
  });

  it('returns the trimmed input as email when invalid', () => {
    expect(checkSyntax('  not an email ')).toEqual({ ok: false, email: 'not an email' });
  });
});
