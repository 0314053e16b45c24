/**
 * Address normalization and a local syntax check. Shared by the background, the popup and the
 * content script: an address that fails `isValidEmailSyntax` is `invalid` without a service call.
 */

const MAX_ADDRESS = 254;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
// Dot-atom local part (RFC 5322) plus non-ASCII characters (RFC 6531).
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\uFFFF-]+$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain in ASCII (IDN → punycode), lowercased; null when it is no host name at all. */
export function toAsciiDomain(domain: string): string | null {
  const lower = domain.toLowerCase();
  if (lower === '' || /[\s/\\?#@:[\]%]/.test(lower)) return null;
  try {
    return new URL(`http://${lower}`).hostname;
  } catch {
    return null;
  }
}

/** Trim, lowercase the domain and convert an IDN domain to punycode. The local part keeps its case. */
export function normalizeEmail(raw: string): string {
  const trimmed = raw.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 0) return trimmed;
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1);
  return `${local}@${toAsciiDomain(domain) ?? domain.toLowerCase()}`;
}

function validLocal(local: string): boolean {
  if (local.length === 0 || local.length > MAX_LOCAL) return false;
  return local.split('.').every((atom) => LOCAL_ATOM.test(atom));
}

function validDomain(domain: string): boolean {
  if (domain.length === 0 || domain.length > MAX_DOMAIN) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1] ?? '';
  if (/^[0-9]+$/.test(tld)) return false;
  return labels.every((label) => LABEL.test(label));
}

/** Local syntax check of a normalized address (see `normalizeEmail`). */
export function isValidEmailSyntax(email: string): boolean {
  if (email.length > MAX_ADDRESS) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  return validLocal(email.slice(0, at)) && validDomain(email.slice(at + 1));
}

/** Normalize and check in one step. */
export function checkEmail(raw: string): { email: string; valid: boolean } {
  const email = normalizeEmail(raw);
  return { email, valid: isValidEmailSyntax(email) };
}
