/**
 * A syntax corpus for the service's "one rulebook" check (server/app/bulk-single-agree.test.ts):
 * the kinds of address the public syntax corpora (isemail, hapijs/address, Wikipedia's list)
 * exercise — quoted and commented local parts, address literals, IDN and emoji domains, dots
 * and hyphens in odd places, lengths — each also wrapped in what a spreadsheet cell may carry
 * around it (spaces, tabs, CR/LF, NUL, no-break and other Unicode spaces, a BOM). Written for
 * this project, generated rather than listed, so every wrapper meets every kind of address.
 */
import { FAKE_DOMAINS as D } from './fake-net-zone';

/** Addresses of every kind, valid and invalid, on domains the fake network answers at once. */
const BASES: readonly string[] = [
  `alice@${D.deliverable}`,
  `Bob@${D.deliverable.toUpperCase()}`,
  `first.last@${D.rejecting}`,
  `x+tag@${D.rejecting}`,
  `nobody@${D.deliverable}.`,
  'test@iana.org',
  'test@xn--bcher-kva.example',
  'test@bücher.example',
  'test@😆😆😆.org',
  'test@例え.jp',
  "o'hara!#$%&*/=?^_`{|}~-@example.org",
  '"quoted"@example.org',
  '"with space"@example.org',
  'a(comment)@example.org',
  'test@[192.0.2.1]',
  'test@[IPv6:2001:db8::1]',
  'test@192.0.2.1',
  '.lead@example.org',
  'trail.@example.org',
  'two..dots@example.org',
  'test@-hyphen.example',
  'test@under_score.example',
  'test@example..org',
  'test@example',
  'test@@example.org',
  'no-at-sign.example.org',
  '@example.org',
  'test@',
  'jöhn@example.org',
  'test@example.org/path',
  'test@example.org?x',
  'test@exa%2emple.org',
  `${'l'.repeat(64)}@example.org`,
  `${'l'.repeat(65)}@example.org`,
  `test@${'a'.repeat(63)}.org`,
  `test@${'a'.repeat(64)}.org`,
  'Alice <alice@example.org>',
  'mailto:alice@example.org',
];

/** What a cell may carry around or inside an address. */
const WRAPS: readonly ((address: string) => string)[] = [
  (a) => a,
  (a) => `  ${a}  `,
  (a) => `\t${a}`,
  (a) => `${a}\r\n`,
  (a) => `\r\n${a}`,
  (a) => `${a}\n`,
  (a) => `${a}\r`,
  (a) => `${a}\u0000`,
  (a) => a.replace('@', '\r@'),
  (a) => `${a}\u00a0`,
  (a) => `\u2003${a}`,
  (a) => `\uFEFF${a}`,
  (a) => `${a}\u2028`,
  (a) => a.replace('@', ' @'),
];

/** Every base in every wrapping (duplicates dropped): several hundred cells. */
export const SYNTAX_CORPUS: readonly string[] = [...new Set(BASES.flatMap((a) => WRAPS.map((w) => w(a))))];
