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

/** The corrected address (`alice@gmail.com`), or null when the domain looks right. */
export function suggestAddress(local: string, domain: string): string | null {
  if (KNOWN.has(domain)) return null;
  const suggestion = spellChecker.run({ email: `${local}@${domain}`, domains: DOMAINS });
  if (!suggestion || !KNOWN.has(suggestion.domain) || suggestion.domain === domain) return null;
  return `${local}@${suggestion.domain}`;
}
