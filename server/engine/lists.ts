/**
 * Maintained lists from npm: disposable domains (disposable-email-domains-js), free mail
 * providers (email-providers), role-account local parts (role-based-email-addresses).
 */
import { createRequire } from 'node:module';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

const require = createRequire(import.meta.url);

/** Built once: the package's own isDisposableEmailDomain builds a Set of the whole list per call. */
const disposableDomains: ReadonlySet<string> = disposableEmailBlocklistSet();

// Both packages ship plain JSON/CommonJS arrays without type declarations.
const freeProviders = new Set<string>(require('email-providers/all.json') as string[]);
/** The most common providers, most popular first: the targets of typo suggestions. */
export const COMMON_PROVIDERS: readonly string[] = require('email-providers/common.json') as string[];
const roleLocalParts = new Set<string>(
  (require('role-based-email-addresses') as string[]).map((local) => local.toLowerCase()),
);

export function isDisposable(domain: string): boolean {
  return disposableDomains.has(domain.toLowerCase());
}

export function isFreeProvider(domain: string): boolean {
  return freeProviders.has(domain);
}

/** `info@`, `sales+eu@`, `Support@` are role accounts; the +tag is ignored. */
export function isRoleAccount(local: string): boolean {
  return roleLocalParts.has(local.toLowerCase().replace(/\+.*$/, ''));
}
