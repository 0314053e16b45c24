/**
 * The provider world: real SMTP servers on loopback that answer as Gmail, Google Workspace,
 * Microsoft 365 (with and without directory-based edge blocking), Outlook.com, Yahoo, Mimecast,
 * Proofpoint, Postfix and Exim are documented to answer (./profiles.ts, ./hosts.ts, ./sites.ts), each MX
 * host on its own 127.0.0.x address and all on one shared port (the engine has one SMTP_PORT),
 * plus a real DNS server (server/testing/fake-net-dns.ts) holding their zone. Every address the
 * scoring test checks has a ground truth; every connection is recorded with its transcript.
 *
 *   const world = await startProviderWorld({ greylistWindowMs: 3000 });
 *   const service = await startService({ env: providerWorldEnv(world) });
 *   world.addresses;            // [{ email, provider, site, behaviour, truth }]
 *   world.connections('mx.exim-site.test');  // by host name or 127.0.0.x address
 *   await world.stop();
 *
 * For the scheduler's own tests the world also has `tarpit.test` (two MX hosts that accept TCP
 * and never speak), `fast.test` and `slow.test` (RCPT answered after `slowRcptMs`; both accept
 * local parts starting with `ok`, refuse others with 550 5.1.1), and wildcard domains
 * `u1.evil.test`, `u2.evil.test`, … (each its own MX name, all on one silent address) and
 * `u1.limited-evil.test`, … (all on one Exim host that takes `limitedConnections` connections per
 * client and answers RCPT slowly). ./use-world.ts starts the world and the service for a suite.
 */
import type net from 'node:net';
import type { EngineConfig } from '../../engine/types';
import { type DnsQuery, startFakeDns } from '../fake-net-dns';
import type { ZoneEntry } from '../fake-net-zone';
import { createGreylist, type Greylist } from './greylist';
import { type CatalogueOptions, catalogueHosts } from './hosts';
import { EXIM_RCPT } from './profiles';
import { type Behaviour, mailboxOf, SITES, type Site, type Truth, truthOf, WILDCARD_SUFFIXES } from './sites';
import { type ConnectionLog, createHost, type RunningHost } from './smtp-host';

export type { Behaviour, ConnectionLog, Truth };

export interface WorldAddress {
  email: string;
  /** Who runs the site, e.g. `Gmail`, `Postfix + postgrey`. */
  provider: string;
  domain: string;
  behaviour: Behaviour;
  truth: Truth;
}

export interface ProviderWorldOptions extends Partial<CatalogueOptions> {
  /** postgrey-style window: a triplet is deferred until this long after its first try (default 3000 ms). */
  greylistWindowMs?: number;
}

export interface ProviderWorld {
  /** `127.0.0.1:<port>` of the DNS server. */
  dnsServer: string;
  /** The one SMTP port every host listens on (each on its own address). */
  smtpPort: number;
  /** Every scored address with its ground truth (not the scheduler-test domains). */
  addresses: WorldAddress[];
  sites: Site[];
  /** MX host name → its 127.0.0.x address. */
  hostIps: Map<string, string>;
  greylist: Greylist;
  /** Connections, all or to one host (by name or address), in the order they opened. */
  connections(host?: string): ConnectionLog[];
  /** Connections that asked for this recipient. */
  connectionsFor(email: string): ConnectionLog[];
  /** The transcripts of every connection (of `logs`, default all) that asked for `email`, as text. */
  transcript(email: string, logs?: ConnectionLog[]): string;
  /** Highest number of connections open at once at a host (name or address). */
  maxOpen(host: string): number;
  dnsLog: DnsQuery[];
  tarpitDomain: string;
  fastDomain: string;
  slowDomain: string;
  /** `u<i>.evil.test`: its own MX name, one silent address for all i. */
  silentWildcard(i: number): string;
  /** `u<i>.limited-evil.test`: its own MX name, one connection-limited slow Exim host for all i. */
  limitedWildcard(i: number): string;
  /** Forgets greylisting triplets and the connection logs (a fresh start for a second run). */
  reset(): void;
  stop(): Promise<void>;
}

const DEFAULTS: CatalogueOptions & { greylistWindowMs: number } = {
  greylistWindowMs: 3000,
  eximConnectionsPerClient: 2,
  eximRcptDelayMs: 400,
  pregreetWaitMs: 1500,
  greetingDelayMs: 1000,
  slowRcptMs: 5000,
  limitedConnections: 2,
};

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Binds every host to its address on one shared port: a free port on the first, tried on the rest. */
async function bindAll(hosts: RunningHost[]): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const bound: RunningHost[] = [];
    try {
      let port = 0;
      for (const host of hosts) {
        port = await listen(host.server, port, host.spec.ip);
        bound.push(host);
      }
      return port;
    } catch {
      await Promise.all(bound.map((h) => new Promise<void>((r) => h.server.close(() => r()))));
    }
  }
  throw new Error('provider world: no port free on every 127.0.0.x address');
}

/** The zone, with the wildcard domains answered by pattern. */
function buildZone(sites: Site[], hostIps: Map<string, string>): Record<string, ZoneEntry> {
  const zone: Record<string, ZoneEntry> = {};
  for (const s of sites)
    zone[s.domain] = { mx: s.mx.map((m) => ({ priority: m.priority, exchange: m.name })) };
  for (const [name, ip] of hostIps) zone[name] = { a: [ip] };
  const silentIp = hostIps.get('silent.evil.test') ?? '';
  const limitedIp = hostIps.get('limited.evil.test') ?? '';
  const wildcard = (name: string): ZoneEntry | undefined => {
    for (const [suffix, ip] of [
      [WILDCARD_SUFFIXES.silent, silentIp],
      [WILDCARD_SUFFIXES.limited, limitedIp],
    ] as const) {
      const match = new RegExp(`^(mx\\.)?(u\\d+)\\.${suffix.replace('.', '\\.')}$`).exec(name);
      if (!match) continue;
      return match[1] ? { a: [ip] } : { mx: [{ priority: 10, exchange: `mx.${match[2]}.${suffix}` }] };
    }
    return undefined;
  };
  return new Proxy(zone, {
    get: (target, name) => (typeof name === 'string' ? (target[name] ?? wildcard(name)) : undefined),
  });
}

/** A site for a wildcard domain (u7.limited-evil.test), served by the limited host. */
function wildcardSite(domain: string): Site | undefined {
  if (!new RegExp(`^u\\d+\\.${WILDCARD_SUFFIXES.limited.replace('.', '\\.')}$`).test(domain))
    return undefined;
  return {
    domain,
    provider: 'Wildcard domain on one limited host',
    behaviour: 'connection-limit',
    mx: [{ name: `mx.${domain}`, priority: 10 }],
    hosts: ['limited.evil.test'],
    mailboxes: {},
    unknown: EXIM_RCPT.unrouteable,
    answer: EXIM_RCPT.ok,
    probes: [],
  };
}

export async function startProviderWorld(options: ProviderWorldOptions = {}): Promise<ProviderWorld> {
  const o = { ...DEFAULTS, ...options };
  const specs = catalogueHosts(o);
  const hostIps = new Map(specs.map((s) => [s.name, s.ip]));
  const log: ConnectionLog[] = [];
  const greylist = createGreylist(o.greylistWindowMs);
  const byDomain = new Map(SITES.map((s) => [s.domain, s]));
  const siteOf = (domain: string) => byDomain.get(domain) ?? wildcardSite(domain);
  const hosts = specs.map((spec) =>
    createHost(spec, {
      log,
      greylist,
      siteOf,
      mailbox: mailboxOf,
    }),
  );
  const smtpPort = await bindAll(hosts);
  const dns = await startFakeDns(buildZone(SITES, hostIps)).catch(async (error: unknown) => {
    await Promise.all(hosts.map((h) => h.close()));
    throw error;
  });

  const addresses: WorldAddress[] = SITES.flatMap((s) =>
    s.probes.map((local) => ({
      email: `${local}@${s.domain}`,
      provider: s.provider,
      domain: s.domain,
      behaviour: s.behaviour,
      truth: truthOf(s, local),
    })),
  );
  const hostKey = (host: string) => hostIps.get(host) ?? host;
  const connections = (host?: string) => (host ? log.filter((c) => c.ip === hostKey(host)) : [...log]);
  const connectionsFor = (email: string) => log.filter((c) => c.rcpts.includes(email.toLowerCase()));
  const byIp = new Map(hosts.map((h) => [h.spec.ip, h]));

  return {
    dnsServer: dns.address,
    smtpPort,
    addresses,
    sites: SITES,
    hostIps,
    greylist,
    connections,
    connectionsFor,
    transcript: (email, logs = log) => formatTranscript(logs, email),
    maxOpen: (host) => byIp.get(hostKey(host))?.maxOpen() ?? 0,
    dnsLog: dns.queries,
    tarpitDomain: 'tarpit.test',
    fastDomain: 'fast.test',
    slowDomain: 'slow.test',
    silentWildcard: (i) => `u${i}.${WILDCARD_SUFFIXES.silent}`,
    limitedWildcard: (i) => `u${i}.${WILDCARD_SUFFIXES.limited}`,
    reset() {
      greylist.reset();
      log.splice(0);
    },
    async stop() {
      await Promise.all([dns.stop(), ...hosts.map((h) => h.close())]);
    },
  };
}

/** The transcripts of the connections in `logs` that asked for `email`, for failure reports. */
export function formatTranscript(logs: ConnectionLog[], email: string): string {
  const start = logs[0]?.openedAt ?? 0;
  return logs
    .filter((c) => c.rcpts.includes(email.toLowerCase()))
    .map(
      (c) =>
        `# connection ${c.id} to ${c.host} [${c.ip}] at +${c.openedAt - start} ms\n` +
        c.lines.map((l) => `${String(l.at).padStart(6)} ${l.from}: ${l.text}`).join('\n'),
    )
    .join('\n');
}

/** SMTP_TIMEOUT_MS for the world: past its slow greetings (1.5 s), short for its tarpits. */
export const WORLD_SMTP_TIMEOUT_MS = 4000;

/** Environment for a service or worker process pointed at the world (docs/design.md §4 names). */
export function providerWorldEnv(world: ProviderWorld): Record<string, string> {
  return {
    DNS_SERVERS: world.dnsServer,
    SMTP_PORT: String(world.smtpPort),
    ALLOW_PRIVATE_MX: '1',
    SMTP_TIMEOUT_MS: String(WORLD_SMTP_TIMEOUT_MS),
    GREYLIST_RETRY_MS: '500',
    SMTP_HELO: 'verimark.test',
    SMTP_FROM: 'probe@verimark.test',
  };
}

/** An in-process engine configuration pointed at the world (server/engine/engine.ts). */
export function engineConfigForProviderWorld(
  world: ProviderWorld,
  extra: Partial<EngineConfig> = {},
): EngineConfig {
  return {
    dnsServers: [world.dnsServer],
    smtpPort: world.smtpPort,
    heloName: 'verimark.test',
    mailFrom: 'probe@verimark.test',
    smtpTimeoutMs: WORLD_SMTP_TIMEOUT_MS,
    greylistRetryMs: 500,
    allowPrivateMx: true,
    globalConcurrency: 32,
    perHostConcurrency: 8,
    perDomainConcurrency: 8,
    ...extra,
  };
}
