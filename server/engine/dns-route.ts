/**
 * Where mail for a domain goes, through Node's resolver: MX hosts sorted by priority,
 * the domain itself when it has no MX but an A/AAAA record (RFC 5321 §5.1), or why not.
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';

export interface MailHost {
  /** MX exchange (or the domain itself for the A fallback), lowercased, no trailing dot. */
  name: string;
  priority: number;
}

export type Route =
  | { kind: 'hosts'; hosts: MailHost[]; viaA: boolean }
  /** RFC 7505 null MX: the domain accepts no mail. */
  | { kind: 'null-mx' }
  /** The domain exists but has neither MX nor address records. */
  | { kind: 'no-mx' }
  /** NXDOMAIN. */
  | { kind: 'nxdomain' }
  /** SERVFAIL, timeout or another temporary failure: nothing can be concluded. */
  | { kind: 'dns-error'; code: string };

export type Resolver = InstanceType<typeof dns.Resolver>;

export function createResolver(servers: string[], timeoutMs: number): Resolver {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'UNKNOWN';
const isNoData = (code: string) => code === 'ENODATA';
const isNotFound = (code: string) => code === 'ENOTFOUND';

const cleanName = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A and AAAA addresses of a host; [] when it has none. Throws on temporary failures. */
export async function resolveAddresses(resolver: Resolver, host: string): Promise<string[]> {
  if (net.isIP(host)) return [host];
  const lookups = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  const addresses = lookups.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  if (addresses.length > 0) return addresses;
  const failure = lookups.find(
    (r): r is PromiseRejectedResult =>
      r.status === 'rejected' && !isNoData(codeOf(r.reason)) && !isNotFound(codeOf(r.reason)),
  );
  if (failure) throw failure.reason;
  return [];
}

export async function resolveRoute(resolver: Resolver, domain: string): Promise<Route> {
  try {
    const records = await resolver.resolveMx(domain);
    const hosts = records
      .map((r) => ({ name: cleanName(r.exchange), priority: r.priority }))
      .filter((h) => h.name !== '')
      .sort((a, b) => a.priority - b.priority);
    return hosts.length > 0 ? { kind: 'hosts', hosts, viaA: false } : { kind: 'null-mx' };
  } catch (error) {
    const code = codeOf(error);
    if (isNotFound(code)) return { kind: 'nxdomain' };
    if (!isNoData(code)) return { kind: 'dns-error', code };
  }
  try {
    const addresses = await resolveAddresses(resolver, domain);
    return addresses.length > 0
      ? { kind: 'hosts', hosts: [{ name: domain, priority: 0 }], viaA: true }
      : { kind: 'no-mx' };
  } catch (error) {
    return { kind: 'dns-error', code: codeOf(error) };
  }
}
