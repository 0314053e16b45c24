/**
 * The address rulebook: one parser for the content script, the popup, the background and the
 * service, so both sides give every address the same decision (the extension never spends a
 * credit on an address the service would refuse, and never refuses one the service accepts).
 * Runs in browsers and Node alike (no `node:` imports, no `URL`).
 *
 * Rules:
 * - An address is parsed as an address, never as a URL host: nothing is decoded or resolved,
 *   so `dave@good.test/x`, `erin@good.test?x` and `frank@good%2etest` are invalid, not
 *   `…@good.test`.
 * - Surrounding whitespace is trimmed. A CR, LF or NUL anywhere, or any whitespace inside, is
 *   invalid.
 * - It splits at the last `@`. Local part: dot-atom of ASCII `atext` (RFC 5322), 1–64 characters,
 *   no leading, trailing or double dot; it keeps its case. Quoted local parts (`"jo doe"@x.com`)
 *   and non-ASCII local parts (`jöhn@example.com`) are invalid: a probe cannot use them reliably.
 * - Domain: letters and digits of any script (with their combining marks), symbols such as
 *   emoji (`😆.example`: registered under some TLDs, so DNS decides, not this rule), `-` and
 *   `.` only; anything else
 *   (`/ \ ? # % _ [ ]`, full-width dots, …) is invalid, so address literals
 *   (`user@[192.0.2.1]`) are too. One trailing dot (the DNS root) is dropped. The domain is
 *   mapped to compatibility form (NFKC) and lowercased; non-ASCII labels become punycode
 *   (`bücher.example` → `xn--bcher-kva.example`). Labels are 1–63 characters of letters, digits
 *   and inner hyphens; the domain is ≤ 253 characters with at least two labels, and the
 *   top-level label is not all digits (that would be an IPv4 address).
 * - The whole normalized address is ≤ 254 characters (RFC 5321).
 */
/// <reference path="./punycode-es6.d.ts" />
import { encode as punycodeEncode } from 'punycode.js/punycode.es6.js';

const MAX_LOCAL = 64;
const MAX_LABEL = 63;
const MAX_DOMAIN = 253;
export const MAX_ADDRESS = 254;

/** Why an address is invalid: which rule it breaks first. */
type AddressFault = 'empty' | 'control' | 'whitespace' | 'no_at' | 'local' | 'domain' | 'length';

export type ParsedAddress =
  | { ok: true; email: string; local: string; domain: string }
  | { ok: false; email: string; reason?: AddressFault };

// RFC 5322 atext, ASCII only.
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
const CONTROL = /[\r\n\0]/;
const DOMAIN_CHARS = /^[\p{L}\p{M}\p{Nd}\p{So}.-]+$/u;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const NON_ASCII = /[^\0-\x7f]/;

function validLocal(local: string): boolean {
  return local.length > 0 && local.length <= MAX_LOCAL && local.split('.').every((atom) => ATOM.test(atom));
}

function asciiLabel(label: string): string | null {
  if (!NON_ASCII.test(label)) return label;
  if (label.startsWith('-') || label.endsWith('-')) return null;
  try {
    return `xn--${punycodeEncode(label)}`;
  } catch {
    return null; // RangeError on overflow: no real label
  }
}

/**
 * Domains already normalized, by their raw form: a page or a file names the same few domains
 * again and again (a CRM table, a bulk list). Bounded: at most 1,000 of at most 256 characters
 * (longer ones are read each time), emptied when full.
 */
const domains = new Map<string, string | null>();

/** The ASCII form of a domain (see the rules above), or null when it is no valid mail domain. */
export function normalizeDomain(raw: string): string | null {
  let ascii = domains.get(raw);
  if (ascii === undefined) {
    ascii = readDomain(raw);
    if (raw.length <= 256) {
      if (domains.size >= 1000) domains.clear();
      domains.set(raw, ascii);
    }
  }
  return ascii;
}

function readDomain(raw: string): string | null {
  const domain = raw.endsWith('.') ? raw.slice(0, -1) : raw;
  if (!DOMAIN_CHARS.test(domain)) return null;
  const mapped = domain.normalize('NFKC').toLowerCase();
  if (!DOMAIN_CHARS.test(mapped)) return null;
  const labels: string[] = [];
  for (const label of mapped.split('.')) {
    const ascii = asciiLabel(label);
    if (ascii === null || ascii.length > MAX_LABEL || !ASCII_LABEL.test(ascii)) return null;
    labels.push(ascii);
  }
  if (labels.length < 2 || /^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return null;
  const ascii = labels.join('.');
  return ascii.length <= MAX_DOMAIN ? ascii : null;
}

/** Parses one address. `email` is the normalized address, or the trimmed input when invalid. */
export function parseAddress(input: string): ParsedAddress {
  const trimmed = input.trim();
  const fail = (reason: AddressFault): ParsedAddress => ({ ok: false, email: trimmed, reason });
  if (CONTROL.test(input)) return fail('control');
  if (trimmed === '') return fail('empty');
  if (/\s/.test(trimmed)) return fail('whitespace');
  const at = trimmed.lastIndexOf('@');
  if (at < 0) return fail('no_at');
  const local = trimmed.slice(0, at);
  if (!validLocal(local)) return fail('local');
  const domain = normalizeDomain(trimmed.slice(at + 1));
  if (domain === null) return fail('domain');
  const email = `${local}@${domain}`;
  if (email.length > MAX_ADDRESS) return fail('length');
  return { ok: true, email, local, domain };
}

/** The normalized address, or the trimmed input when it is invalid. */
export function normalizeEmail(raw: string): string {
  return parseAddress(raw).email;
}

/** Normalize and check in one step: the shape the extension's call sites use. */
export function checkEmail(raw: string): { email: string; valid: boolean } {
  const parsed = parseAddress(raw);
  return { email: parsed.email, valid: parsed.ok };
}
