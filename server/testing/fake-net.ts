/**
 * The test network every server test uses: a real DNS server and a real SMTP server on
 * loopback, with a built-in set of test domains that together produce every verdict and
 * reason of docs/design.md §3 (see fake-net-zone.ts for what each domain does).
 *
 *   const net = await startFakeNet();
 *   const engine = createEngine(engineConfigForFakeNet(net));
 *   // or a child-process service: spawn(..., { env: { ...process.env, ...fakeNetEnv(net) } })
 *   await net.stop();
 */
import type { EngineConfig } from '../engine/types';
import { type DnsQuery, startFakeDns } from './fake-net-dns';
import { type SmtpConnectionLog, startFakeSmtp } from './fake-net-smtp';
import { FAKE_DOMAINS, KNOWN_MAILBOXES } from './fake-net-zone';

export type { DnsQuery, SmtpConnectionLog };
export { FAKE_DOMAINS, KNOWN_MAILBOXES };

export interface FakeNetOptions {
  /** How long the slow domain takes to answer RCPT TO (default 2000 ms, well past the test timeout). */
  slowMs?: number;
}

export interface FakeNet {
  /** `127.0.0.1:<port>` of the DNS server. */
  dnsServer: string;
  /** Port of the SMTP server (on 127.0.0.1; the tarpit listens on 127.0.0.3 with the same port). */
  smtpPort: number;
  domains: typeof FAKE_DOMAINS;
  /** Local parts the deliverable domains accept (alice, bob, info, postmaster, support). */
  mailboxes: typeof KNOWN_MAILBOXES;
  /** One entry per SMTP connection, with the commands it sent, in order. */
  smtpLog: SmtpConnectionLog[];
  /** Every DNS question received. */
  dnsLog: DnsQuery[];
  /** How many DNS questions of this type (default any) asked for this name. */
  dnsQueryCount(name: string, type?: string): number;
  /** SMTP connections that sent a RCPT TO for an address at this domain. */
  connectionsFor(domain: string): SmtpConnectionLog[];
  /** Every command line of every connection, in order. */
  allCommands(): string[];
  stop(): Promise<void>;
}

/** Short test timeouts; generous enough for a loaded 2-core machine. */
const FAKE_NET_TIMEOUT_MS = 500;
const FAKE_NET_GREYLIST_RETRY_MS = 200;
const FAKE_NET_DEFER_MS = 300;

export async function startFakeNet(options: FakeNetOptions = {}): Promise<FakeNet> {
  const dns = await startFakeDns();
  const smtp = await startFakeSmtp({ slowMs: options.slowMs ?? 2000 }).catch(async (error) => {
    await dns.stop();
    throw error;
  });
  const rcptRe = (domain: string) => new RegExp(`^RCPT TO:\\s*<[^>]*@${domain.replace(/\./g, '\\.')}>`, 'i');
  return {
    dnsServer: dns.address,
    smtpPort: smtp.port,
    domains: FAKE_DOMAINS,
    mailboxes: KNOWN_MAILBOXES,
    smtpLog: smtp.log,
    dnsLog: dns.queries,
    dnsQueryCount: (name, type) =>
      dns.queries.filter((q) => q.name === name.toLowerCase() && (!type || q.type === type)).length,
    connectionsFor: (domain) => {
      const re = rcptRe(domain);
      return smtp.log.filter((c) => c.commands.some((line) => re.test(line)));
    },
    allCommands: () => smtp.log.flatMap((c) => c.commands),
    async stop() {
      await Promise.all([dns.stop(), smtp.stop()]);
    },
  };
}

export function engineConfigForFakeNet(net: FakeNet): EngineConfig {
  return {
    dnsServers: [net.dnsServer],
    smtpPort: net.smtpPort,
    heloName: 'verimark.test',
    mailFrom: 'probe@verimark.test',
    smtpTimeoutMs: FAKE_NET_TIMEOUT_MS,
    greylistRetryMs: FAKE_NET_GREYLIST_RETRY_MS,
    allowPrivateMx: true,
    globalConcurrency: 8,
    perHostConcurrency: 2,
  };
}

/** Environment for a child-process service pointed at the fake network (docs/design.md §4 names). */
export function fakeNetEnv(net: FakeNet): Record<string, string> {
  return {
    DNS_SERVERS: net.dnsServer,
    SMTP_PORT: String(net.smtpPort),
    ALLOW_PRIVATE_MX: '1',
    SMTP_TIMEOUT_MS: String(FAKE_NET_TIMEOUT_MS),
    GREYLIST_RETRY_MS: String(FAKE_NET_GREYLIST_RETRY_MS),
    // Deferred bulk rows come back within a second (server/jobs/deferral.ts).
    GREYLIST_WINDOW_MS: String(FAKE_NET_DEFER_MS),
    RETRY_BACKOFF_MS: String(FAKE_NET_DEFER_MS),
    SMTP_HELO: 'verimark.test',
    SMTP_FROM: 'probe@verimark.test',
  };
}
