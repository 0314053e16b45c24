/**
 * Did-you-mean for misspelled provider domains (gmial.com → gmail.com) with
 * @zootools/email-spell-checker (a maintained TypeScript fork of mailcheck).
 *
 * Only suggestions that land on a well-known domain are kept: the library's top-level-domain
 * guessing would otherwise turn `example.test` into `example.de`.
 */
import spellChecker from '@zootools/email-spell-checker';
import { COMMON_PROVIDERS } from './lists';

const KNOWN = new Set<string>([...spellChecker.POPULAR_DOMAINS, ...COMMON_PROVIDERS]);
const DOMAINS = [...KNOWN];

/**
 * The spell checker compares the domain with every known one, and every row of a bulk file asks
 * again: answers are kept per domain, which alone decides them.
 */
const corrections = new Map<string, string | null>();
const MAX_CORRECTIONS = 10_000;

function correctDomain(domain: string): string | null {
  if (KNOWN.has(domain)) return null;
  const known = corrections.get(domain);
  if (known !== undefined) return known;
  // The local part only travels through the checker; `x` stands for any syntactically valid one.
  const suggestion = spellChecker.run({ email: `x@${domain}`, domains: DOMAINS });
  const fixed =
    suggestion && KNOWN.has(suggestion.domain) && suggestion.domain !== domain ? suggestion.domain : null;
  if (corrections.size >= MAX_CORRECTIONS) corrections.clear();
  corrections.set(domain, fixed);
  return fixed;
}

/** The corrected address (`alice@gmail.com`), or null when the domain looks right. */
export function suggestAddress(local: string, domain: string): string | null {
  const fixed = correctDomain(domain);
  return fixed === null ? null : `${local}@${fixed}`;
}
