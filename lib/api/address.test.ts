import { describe, expect, it } from 'vitest';
import { checkEmail, isValidEmailSyntax, normalizeEmail } from './address';

describe('normalizeEmail', () => {
  it('trims, lowercases the domain only and keeps the local part', () => {
    expect(normalizeEmail('  John.Doe@Example.COM \n')).toBe('John.Doe@example.com');
  });
  it('converts an IDN domain to punycode', () => {
    expect(normalizeEmail('info@Bücher.example')).toBe('info@xn--bcher-kva.example');
  });
  it('leaves text without @ alone', () => {
    expect(normalizeEmail(' nobody ')).toBe('nobody');
  });
});

describe('isValidEmailSyntax', () => {
  const valid = [
    'a@example.com',
    "o'hara+tag@mail.example.co.uk",
    'x@xn--bcher-kva.example',
    'ü@example.com',
  ];
  const invalid = [
    'plainaddress',
    '@example.com',
    'a@',
    'a@localhost',
    'a..b@example.com',
    '.a@example.com',
    'a@-example.com',
    'a@example..com',
    'a b@example.com',
    'a@example.123',
    `${'x'.repeat(65)}@example.com`,
    `a@${'l'.repeat(64)}.com`,
  ];
  for (const email of valid) it(`accepts ${email}`, () => expect(isValidEmailSyntax(email)).toBe(true));
  for (const email of invalid) it(`rejects ${email}`, () => expect(isValidEmailSyntax(email)).toBe(false));
});

describe('checkEmail', () => {
  it('normalizes then checks', () => {
    expect(checkEmail(' A@Bücher.Example ')).toEqual({ email: 'A@xn--bcher-kva.example', valid: true });
    expect(checkEmail('a@exa mple.com').valid).toBe(false);
  });
});
