/**
 * Address syntax and normalization (RFC 5321 lengths, RFC 5322 dot-atom local parts,
 * IDN domains to punycode through node:url's domainToASCII).
 *
 * Decisions: quoted local parts ("john doe"@x), internationalized (non-ASCII) local parts and
 * domain literals (user@[192.0.2.1]) are refused as invalid syntax: a probe could not use them
 * reliably and they are practically never real business addresses. The domain needs at least
 * two labels. One trailing dot on the domain (the DNS root) is dropped.
 */
import { domainToASCII } from 'node:url';

export const MAX_LOCAL = 64;
export const MAX_DOMAIN = 253;
export const MAX_LABEL = 63;
export const MAX_ADDRESS = 254;

export type SyntaxResult =
  | { ok: true; email: string; local: string; domain: string }
  | { ok: false; email: string };

// RFC 5322 atext.
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

function validLocal(local: string): boolean {
  return local.length > 0 && local.length <= MAX_LOCAL && local.split('.').every((atom) => ATOM.test(atom));
}

/** Returns the ASCII (punycode) domain, or null when it is not a valid internet host name. */
export function normalizeDomain(raw: string): string | null {
  const withoutRoot = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (withoutRoot === '' || /\s/.test(withoutRoot)) return null;
  const ascii = domainToASCII(withoutRoot);
  if (ascii === '' || ascii.length > MAX_DOMAIN) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((label) => label.length <= MAX_LABEL && LABEL.test(label))) return null;
  // A top-level domain is never all digits (that would be an IPv4 address).
  return /^[0-9]+$/.test(labels[labels.length - 1] ?? '') ? null : ascii;
}

export function checkSyntax(input: string): SyntaxResult {
  const trimmed = input.trim();
  const fail = { ok: false as const, email: trimmed };
  if (/\s/.test(trimmed)) return fail;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return fail;
  const local = trimmed.slice(0, at);
  if (!validLocal(local)) return fail;
  const domain = normalizeDomain(trimmed.slice(at + 1));
  if (domain === null) return fail;
  const email = `${local}@${domain}`;
  if (email.length > MAX_ADDRESS) return fail;
  return { ok: true, email, local, domain };
}
