/**
 * The one table of address cases that the extension's entry points (content script, background,
 * popup helpers) and the service's (engine syntax step, HTTP) must all decide alike.
 * `email` is the normalized address when the address is valid, null when it is invalid.
 * `http` marks the cases also sent through `POST /verify/single` (each costs a round trip).
 */

export interface AddressCase {
  input: string;
  email: string | null;
  http?: boolean;
}

const label63 = 'a'.repeat(63);
/** 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters: the longest domain. */
const domain253 = [label63, label63, label63, 'a'.repeat(61)].join('.');
/** A 254-character address: 13 + 1 + 240. */
const fits254 = `${'l'.repeat(13)}@${[label63, label63, label63, 'a'.repeat(48)].join('.')}`;

export const ADDRESS_CASES: readonly AddressCase[] = [
  // Ordinary addresses; the local part keeps its case, the domain is lowercased.
  { input: 'alice@example.com', email: 'alice@example.com' },
  { input: '  Alice@Example.COM \t', email: 'Alice@example.com', http: true },
  { input: 'first.last+tag@sub.example.co.uk', email: 'first.last+tag@sub.example.co.uk' },
  { input: "o'brien!#$%&*/=?^_`{|}~-@example.com", email: "o'brien!#$%&*/=?^_`{|}~-@example.com" },
  { input: 'x@a-b.example', email: 'x@a-b.example' },
  // One trailing dot (the DNS root) is dropped; two are not a domain.
  { input: 'a@example.com.', email: 'a@example.com', http: true },
  { input: 'a@example.com..', email: null },
  // IDN domains become punycode (NFKC, lowercased first).
  { input: 'user@bücher.example', email: 'user@xn--bcher-kva.example', http: true },
  { input: 'user@BÜCHER.example', email: 'user@xn--bcher-kva.example' },
  { input: 'user@xn--bcher-kva.example', email: 'user@xn--bcher-kva.example' },
  { input: 'user@例え.jp', email: 'user@xn--r8jz45g.jp' },
  { input: 'user@straße.de', email: 'user@xn--strae-oqa.de' },
  { input: 'user@मौका.भारत', email: 'user@xn--11b3c6bwc.xn--h2brj9c' },
  { input: 'User@ＥＸＡＭＰＬＥ.com', email: 'User@example.com' },
  // Emoji domains are registered under some TLDs: DNS decides, not the syntax rule.
  { input: 'test@😆😆😆.org', email: 'test@xn--k28haa.org', http: true },
  { input: 'test@☃.example', email: 'test@xn--n3h.example' },
  { input: 'user@-bücher.example', email: null },
  { input: 'user@bücher-.example', email: null },
  { input: 'user@example。com', email: null },
  // Local parts: ASCII dot-atom only.
  { input: 'jöhn@example.com', email: null, http: true },
  { input: '.dave@good.test', email: null, http: true },
  { input: 'dave.@good.test', email: null },
  { input: 'da..ve@good.test', email: null },
  { input: '"john doe"@example.com', email: null },
  { input: '"john"@example.com', email: null },
  { input: 'alice,bob@example.com', email: null },
  { input: 'alice(comment)@example.com', email: null },
  { input: 'mailto:alice@example.com', email: null },
  // Domains: parsed as a domain, never as a URL host.
  { input: 'dave@good.test/x', email: null, http: true },
  { input: 'erin@good.test?x', email: null, http: true },
  { input: 'frank@good%2etest', email: null, http: true },
  { input: 'gina@good.test#x', email: null },
  { input: 'hank@good\\test', email: null },
  { input: 'ivan@good.test:25', email: null },
  { input: 'jane@user:pass@good.test', email: null },
  { input: 'kurt@good_test.com', email: null },
  { input: 'alice@[192.0.2.1]', email: null },
  { input: 'alice@1.2.3.4', email: null },
  { input: 'alice@example.123', email: null },
  { input: 'alice@localhost', email: null },
  { input: 'alice@.example.com', email: null },
  { input: 'alice@example..com', email: null },
  { input: 'alice@-example.com', email: null },
  { input: 'alice@example-.com', email: null },
  // Missing parts.
  { input: '', email: null },
  { input: '   ', email: null },
  { input: 'bob.good.test', email: null, http: true },
  { input: 'frank@', email: null, http: true },
  { input: '@example.com', email: null },
  { input: 'a@b@example.com', email: null },
  { input: 'alice@@example.com', email: null },
  // Whitespace inside, and CR, LF or NUL anywhere.
  { input: 'al ice@example.com', email: null },
  { input: 'alice@exa mple.com', email: null },
  { input: 'alice@exa\u00a0mple.com', email: null },
  { input: 'alice@example.com\r\n', email: null, http: true },
  { input: '\r\nalice@example.com', email: null },
  { input: 'alice@example.com\n', email: null },
  { input: 'ali\nce@example.com', email: null },
  { input: 'alice@exam\rple.com', email: null },
  { input: 'alice\u0000@example.com', email: null, http: true },
  { input: '\u0000alice@example.com', email: null },
  // Lengths (RFC 5321): local part 64, label 63, domain 253, address 254.
  { input: `${'l'.repeat(64)}@example.com`, email: `${'l'.repeat(64)}@example.com` },
  { input: `${'l'.repeat(65)}@example.com`, email: null, http: true },
  { input: `alice@${label63}.com`, email: `alice@${label63}.com` },
  { input: `alice@${'a'.repeat(64)}.com`, email: null },
  { input: `a@${[label63, label63, label63, label63].join('.')}`, email: null },
  { input: `alice@${domain253}`, email: null },
  { input: fits254, email: fits254 },
  { input: `l${fits254}`, email: null },
];
