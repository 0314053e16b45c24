import { describe, expect, it } from 'vitest';
import { mailtoRecipients } from './mailto';

describe('mailtoRecipients', () => {
  it('reads a plain address, in any case of the scheme', () => {
    expect(mailtoRecipients('mailto:alice@example.com')).toEqual(['alice@example.com']);
    expect(mailtoRecipients('MAILTO:Bob@Example.com')).toEqual(['Bob@Example.com']);
    expect(mailtoRecipients('  MailTo:c@d.org  ')).toEqual(['c@d.org']);
  });

  it('reads several recipients in the path and the to, cc and bcc fields', () => {
    const href = 'mailto:a@x.com,b@y.com?cc=c@z.com&bcc=d@w.com;e@v.com&to=f@u.com&subject=Hi%20f@not.me';
    expect(mailtoRecipients(href)).toEqual([
      'a@x.com',
      'b@y.com',
      'c@z.com',
      'd@w.com',
      'e@v.com',
      'f@u.com',
    ]);
  });

  it('decodes percent-encoding, including encoded separators and field names', () => {
    expect(mailtoRecipients('mailto:a%40x.com%2Cb%40y.com?%43C=c%40z.com')).toEqual([
      'a@x.com',
      'b@y.com',
      'c@z.com',
    ]);
    expect(mailtoRecipients('mailto:%22Doe%2C%20Jo%22%20%3Cjo@y.org%3E')).toEqual(['jo@y.org']);
  });

  it('keeps a literal plus (sub-addressing) and drops duplicates', () => {
    expect(mailtoRecipients('mailto:a+tag@x.com?cc=a+tag@x.com')).toEqual(['a+tag@x.com']);
  });

  it('survives malformed escapes', () => {
    expect(mailtoRecipients('mailto:a%ZZb@x.com,c%40d.com%')).toEqual(['a%ZZb@x.com', 'c@d.com%']);
  });

  it('keeps a recipient with no readable address whole, to be judged invalid', () => {
    expect(mailtoRecipients('mailto:bob.good.test')).toEqual(['bob.good.test']);
    expect(mailtoRecipients('mailto:frank@')).toEqual(['frank@']);
    expect(mailtoRecipients('mailto:a@x.com?cc=%20nobody%20')).toEqual(['a@x.com', 'nobody']);
    expect(mailtoRecipients('mailto:?cc=')).toEqual([]);
  });

  it('ignores subject, body and fragments, and anything that is not mailto', () => {
    expect(mailtoRecipients('mailto:?subject=a@b.com&body=c@d.com')).toEqual([]);
    expect(mailtoRecipients('mailto:a@b.com#x@y.com')).toEqual(['a@b.com']);
    expect(mailtoRecipients('https://a@b.com/')).toEqual([]);
    expect(mailtoRecipients('javascript:alert(1)//a@b.com')).toEqual([]);
  });

  it('keeps hostile markup whole, as text to be judged invalid, never an address read out of it', () => {
    const href = 'mailto:%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E@evil.com?cc=%3Cscript%3E@x.com';
    expect(mailtoRecipients(href)).toEqual(['"><img src=x onerror=alert(1)>@evil.com', '<script>@x.com']);
    const quoted = mailtoRecipients("mailto:x'onmouseover='alert(1)'@evil.com,ok@fine.com");
    expect(quoted).toEqual(["x'onmouseover='alert(1)'@evil.com", 'ok@fine.com']);
  });

  it('an entry that is not exactly one address is kept whole, never read as another address', () => {
    expect(mailtoRecipients('mailto:gina smith@good.test')).toEqual(['gina smith@good.test']);
    expect(mailtoRecipients('mailto:gina%20smith@good.test')).toEqual(['gina smith@good.test']);
    expect(mailtoRecipients('mailto:Gina%20Smith%20%3Cgina@good.test%3E')).toEqual(['gina@good.test']);
    expect(mailtoRecipients('mailto:a@x.com%20b@y.com,c@z.com')).toEqual(['a@x.com b@y.com', 'c@z.com']);
    expect(mailtoRecipients('mailto:ok@x.com?cc=write%20to%20boss@y.com')).toEqual([
      'ok@x.com',
      'write to boss@y.com',
    ]);
    expect(mailtoRecipients('mailto:Gina%20%3C%3E')).toEqual(['Gina <>']);
  });
  it('reads a plain one-token link as the general parse does', () => {
    // The fast path (no header fields, nothing to decode) against the same token with a subject,
    // which takes the general parse.
    for (const token of [
      'alice@example.com',
      'Ann.Lee+tag@Example.COM',
      'bob.good.test',
      'frank@',
      '.dave@good.test',
      'x@y@z.test',
      'a'.repeat(320),
      `${'a'.repeat(310)}@b.test`,
    ]) {
      expect(mailtoRecipients(`mailto:${token}`)).toEqual(mailtoRecipients(`mailto:${token}?subject=hi`));
    }
  });
});
