import { describe, expect, it } from 'vitest';
import { addressesInText, addressesOrWritten, exactAddresses } from './address-list';

describe('addressesInText', () => {
  it('reads recipients the way people write them', () => {
    expect(addressesInText('a@x.com, "Doe, Jo" <jo@y.org>; b@z.net')).toEqual([
      'a@x.com',
      'jo@y.org',
      'b@z.net',
    ]);
    expect(addressesInText('Write to info@acme.test.')).toEqual(['info@acme.test']);
  });

  it('keeps unicode and odd-but-valid local parts', () => {
    expect(addressesInText("jörg@bücher.test, o'brien@x.ie")).toEqual(['jörg@bücher.test', "o'brien@x.ie"]);
  });

  it('caps pathological input', () => {
    const many = Array.from({ length: 500 }, (_, i) => `u${i}@x.com`).join(',');
    expect(addressesInText(many)).toHaveLength(50);
    expect(addressesInText(`${'a'.repeat(100_000)}@x.com`)).toEqual([]);
  });
});

describe('addressesOrWritten', () => {
  it('keeps written text with no readable address whole, to be judged invalid', () => {
    expect(addressesOrWritten(' a@x.com, "Jo" <jo@y.org> ')).toEqual(['a@x.com', 'jo@y.org']);
    expect(addressesOrWritten(' bob.good.test ')).toEqual(['bob.good.test']);
    expect(addressesOrWritten('.dave@good.test, erin@good.test..')).toEqual([
      '.dave@good.test',
      'erin@good.test..',
    ]);
    expect(addressesInText('.dave@good.test, erin@good.test..')).toEqual([
      'dave@good.test',
      'erin@good.test',
    ]);
    expect(addressesOrWritten('frank@')).toEqual(['frank@']);
    expect(addressesOrWritten('x'.repeat(1000))).toEqual(['x'.repeat(320)]);
    expect(addressesOrWritten(' \n ')).toEqual([]);
  });
});

describe('exactAddresses', () => {
  it('reads each entry of a list as exactly one address, or Name <address>', () => {
    expect(exactAddresses(' a@x.com, b@y.com ;c@z.com ')).toEqual(['a@x.com', 'b@y.com', 'c@z.com']);
    expect(exactAddresses('"Doe, Jo" <jo@y.org>, Ann Lee <ann@x.com>')).toEqual(['jo@y.org', 'ann@x.com']);
    expect(exactAddresses('a@x.com, A@x.com, a@x.com')).toEqual(['a@x.com', 'A@x.com']);
    expect(exactAddresses(' ,; ')).toEqual([]);
  });

  it('keeps an entry that is anything else whole, never another address read out of it', () => {
    expect(exactAddresses('gina smith@good.test')).toEqual(['gina smith@good.test']);
    expect(exactAddresses('see bob@x.com.')).toEqual(['see bob@x.com.']);
    expect(exactAddresses('Gina <gina smith@x.com>')).toEqual(['Gina <gina smith@x.com>']);
    expect(exactAddresses('<a@x.com> <b@y.com>')).toEqual(['<a@x.com> <b@y.com>']);
    expect(exactAddresses('x'.repeat(1000))).toEqual(['x'.repeat(320)]);
  });
});
