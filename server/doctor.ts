/**
 * `npm run service:admin -- doctor`: can this machine verify at all? (docs/design.md §4)
 * One line per check — DNS, outbound SMTP (port 25 or the proxy), the HELO name, the reverse
 * DNS of the egress address — each `OK` or what to do. `ok` is false when verification cannot
 * work (DNS or the SMTP egress fails); HELO and reverse-DNS advice only warns.
 */
import net from 'node:net';
import { heloWarnings, isFqdn } from './config';
import { checkDns, DEFAULT_DNS_CANARIES } from './engine/dns-health';
import { createResolver, type Resolver, resolveAddresses, resolveRoute } from './engine/dns-route';
import { createConnector } from './engine/engine';
import { isPrivateAddress } from './engine/ip-guard';
import { openSmtpSession } from './engine/smtp-session';
import type { EngineConfig } from './engine/types';

export type Verdict = 'OK' | 'WARN' | 'FAIL' | 'SKIP';
interface DoctorLine {
  verdict: Verdict;
  text: string;
}
interface DoctorReport {
  lines: DoctorLine[];
  ok: boolean;
}

const line = (verdict: Verdict, text: string): DoctorLine => ({ verdict, text });
export const formatLine = ({ verdict, text }: DoctorLine) => `${verdict.padEnd(4)} ${text}`;

interface Egress {
  line: DoctorLine;
  /** Our address as the SMTP peer saw it (direct connections only). */
  localAddress: string | null;
}

async function checkEgress(config: EngineConfig, resolver: Resolver, canary: string): Promise<Egress> {
  const via = config.smtpProxy ? `through SMTP_PROXY ${new URL(config.smtpProxy).host}` : 'directly';
  const route = await resolveRoute(resolver, canary);
  const host = route.kind === 'hosts' ? route.hosts[0]?.name : undefined;
  const addresses = host ? await resolveAddresses(resolver, host).catch(() => []) : [];
  const address = addresses.find((a) => config.allowPrivateMx || !isPrivateAddress(a));
  if (!host || !address) {
    return {
      line: line('FAIL', `SMTP: no usable address for ${canary}'s MX host ${host ?? '(none)'}`),
      localAddress: null,
    };
  }
  const target = `${host} (${address}) port ${config.smtpPort}`;
  let localAddress: string | null = null;
  const connector = createConnector(config);
  const spy = connector
    ? connector
    : (a: string, p: number) =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect({ host: a, port: p });
          const timer = setTimeout(
            () => socket.destroy(new Error(`no connection in ${config.smtpTimeoutMs} ms`)),
            config.smtpTimeoutMs,
          );
          socket.once('connect', () => {
            clearTimeout(timer);
            localAddress = socket.localAddress ?? null;
            resolve(socket);
          });
          socket.once('error', (error) => {
            clearTimeout(timer);
            reject(error);
          });
        });
  try {
    const session = await openSmtpSession(address, config.smtpPort, config.smtpTimeoutMs, spy);
    await session.quit();
    const { code, text } = session.greeting;
    if (code === 220) return { line: line('OK', `SMTP: ${target} answered 220, ${via}`), localAddress };
    return {
      line: line(
        'WARN',
        `SMTP: ${target} greeted ${code} "${text.slice(0, 120)}" ${via}: this host may be blocklisted; check its address at https://check.spamhaus.org`,
      ),
      localAddress,
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const advice = config.smtpProxy
      ? 'check that the proxy runs, is reachable and allows CONNECT to port 25'
      : 'outbound port 25 looks blocked (most cloud hosts block it): ask the provider to open it, or set SMTP_PROXY=socks5://host:port to a machine where it is open';
    return {
      line: line('FAIL', `SMTP: cannot reach ${target} ${via} (${why}): ${advice}`),
      localAddress: null,
    };
  }
}

function checkHelo(config: EngineConfig, host: string): DoctorLine {
  const warnings = heloWarnings({ host, engine: config });
  if (warnings.length > 0) return line('WARN', `HELO: ${warnings[0]}`);
  return line('OK', `HELO: ${config.heloName} is a fully qualified name (set with SMTP_HELO)`);
}

async function checkReverseDns(
  config: EngineConfig,
  resolver: Resolver,
  egress: Egress,
): Promise<DoctorLine> {
  if (config.smtpProxy)
    return line(
      'SKIP',
      "reverse DNS: probes leave from the proxy's address; give that address a PTR record matching SMTP_HELO",
    );
  const address = egress.localAddress;
  if (!address)
    return line('SKIP', 'reverse DNS: no SMTP connection was made, so the egress address is unknown');
  if (isPrivateAddress(address) || !net.isIP(address)) {
    return line(
      'SKIP',
      `reverse DNS: the egress address ${address} is private (behind NAT); give the public address a PTR record matching SMTP_HELO`,
    );
  }
  const names = await resolver.reverse(address).catch(() => [] as string[]);
  if (names.length === 0) {
    return line(
      'WARN',
      `reverse DNS: ${address} has no PTR record; many mail servers refuse such hosts — ask the provider for a PTR naming ${isFqdn(config.heloName) ? config.heloName : 'this host'}`,
    );
  }
  const matches = names.some((n) => n.replace(/\.$/, '').toLowerCase() === config.heloName.toLowerCase());
  return matches
    ? line('OK', `reverse DNS: ${address} → ${names.join(', ')}, matching SMTP_HELO`)
    : line(
        'WARN',
        `reverse DNS: ${address} → ${names.join(', ')}, not SMTP_HELO (${config.heloName}); set SMTP_HELO to that name or change the PTR`,
      );
}

export async function runDoctor(config: EngineConfig, serviceHost = '127.0.0.1'): Promise<DoctorReport> {
  const resolver = createResolver(
    config.dnsServers,
    config.dnsTimeoutMs ?? Math.min(config.smtpTimeoutMs, 5000),
  );
  const canaries = config.dnsCanaries ?? DEFAULT_DNS_CANARIES;
  const servers =
    config.dnsServers.length > 0 ? `DNS_SERVERS ${config.dnsServers.join(', ')}` : 'the system resolver';
  const lines: DoctorLine[] = [];
  const dns = await checkDns(resolver, canaries);
  let ok = dns.usable === true;
  if (dns.usable === true) {
    lines.push(line('OK', `DNS: ${dns.canary} has MX records (${servers})`));
  } else if (dns.usable === false) {
    lines.push(
      line(
        'FAIL',
        `DNS is not usable: ${servers} says well-known domains do not exist (${dns.detail}) — no network, or a broken resolver. Every domain would look nonexistent: set DNS_SERVERS to a working resolver (e.g. 1.1.1.1:53) or fix the network`,
      ),
    );
  } else {
    lines.push(
      line(
        'FAIL',
        `DNS is not usable: no answer from ${servers} (${dns.detail}); check the network or set DNS_SERVERS`,
      ),
    );
  }
  let egress: Egress = {
    line: line('SKIP', 'SMTP: not tried, DNS is needed to find a mail server'),
    localAddress: null,
  };
  if (dns.usable === true) egress = await checkEgress(config, resolver, dns.canary);
  lines.push(egress.line);
  ok &&= egress.line.verdict !== 'FAIL';
  lines.push(checkHelo(config, serviceHost));
  lines.push(await checkReverseDns(config, resolver, egress));
  return { lines, ok };
}
