/**
 * Is the resolver usable at all? A resolver that answers NXDOMAIN for domains that certainly
 * exist (no network, a captive or broken resolver) would otherwise turn every address into
 * undeliverable/invalid_domain. The check asks for the MX records of a few well-known domains;
 * its answer is kept for a minute. The doctor (server/doctor.ts) runs the same check.
 */
import { type Resolver, resolveRoute } from './dns-route';

export const DEFAULT_DNS_CANARIES = ['gmail.com', 'outlook.com', 'yahoo.com'];
const CHECK_TTL_MS = 60_000;

type DnsHealth =
  /** A canary domain resolved: NXDOMAIN answers can be trusted. */
  | { usable: true; canary: string }
  /** Every canary got NXDOMAIN (or "no mail"): the resolver is not telling the truth. */
  | { usable: false; detail: string }
  /** The canaries could not be looked up (timeout, SERVFAIL): nothing proven either way. */
  | { usable: null; detail: string };

export async function checkDns(resolver: Resolver, canaries: string[]): Promise<DnsHealth> {
  const routes = await Promise.all(canaries.map((domain) => resolveRoute(resolver, domain)));
  const found = routes.findIndex((route) => route.kind === 'hosts');
  if (found >= 0) return { usable: true, canary: canaries[found] ?? '' };
  const answers = routes.map(
    (route, i) => `${canaries[i]}: ${route.kind === 'dns-error' ? route.code : route.kind}`,
  );
  const denied = routes.every((route) => route.kind !== 'dns-error');
  return denied
    ? { usable: false, detail: answers.join(', ') }
    : { usable: null, detail: answers.join(', ') };
}

/** checkDns, at most once a minute (concurrent callers share one check). */
export function cachedDnsHealth(
  resolver: Resolver,
  canaries: string[],
  now: () => number = Date.now,
): () => Promise<DnsHealth> {
  let last: { at: number; health: Promise<DnsHealth> } | null = null;
  return () => {
    if (!last || now() - last.at > CHECK_TTL_MS) last = { at: now(), health: checkDns(resolver, canaries) };
    return last.health;
  };
}
