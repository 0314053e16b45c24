/**
 * The fake network itself: its DNS answers and counts, its SMTP server's answers per domain and
 * greylisting.
 */
import { promises as dns } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDisposable, isFreeProvider } from '../engine/lists';
import { openSmtpSession, SmtpFailure } from '../engine/smtp-session';
import { engineConfigForFakeNet, type FakeNet, fakeNetEnv, startFakeNet } from './fake-net';
import { DEAD_IP, SMTP_IP, TARPIT_IP } from './fake-net-zone';

let net: FakeNet;
let resolver: InstanceType<typeof dns.Resolver>;

beforeAll(async () => {
  net = await startFakeNet({ slowMs: 1500 });
  resolver = new dns.Resolver({ timeout: 300, tries: 1 });
  resolver.setServers([net.dnsServer]);
});
afterAll(() => net.stop());

const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: NodeJS.ErrnoException) => error.code,
  );

/** RCPT TO answer code from the fake SMTP server for one address. */
async function rcptCode(address: string, ip = SMTP_IP): Promise<number> {
  const session = await openSmtpSession(ip, net.smtpPort, 1000);
  try {
    await session.command('EHLO fake-net.test');
    await session.command('MAIL FROM:<probe@fake-net.test>');
    return (await session.command(`RCPT TO:<${address}>`)).code;
  } finally {
    await session.quit();
  }
}

describe('fake DNS', () => {
  it('answers MX, A, null MX, NODATA, NXDOMAIN and SERVFAIL from the zone', async () => {
    const d = net.domains;
    expect(await resolver.resolveMx(d.deliverable)).toEqual([
      { exchange: `mx.${d.deliverable}`, priority: 10 },
    ]);
    expect(await resolver.resolve4(`mx.${d.deliverable}`)).toEqual([SMTP_IP]);
    expect(await resolver.resolve4(`mx1.${d.nextMx}`)).toEqual([DEAD_IP]);
    expect(await resolver.resolve4(`mx.${d.tarpit}`)).toEqual([TARPIT_IP]);
    expect(await resolver.resolveMx(d.nullMx)).toEqual([{ exchange: '', priority: 0 }]);
    expect(await resolver.resolveMx(d.unicodeAscii)).toHaveLength(1);
    expect(await errorCode(resolver.resolveMx(d.aFallback))).toBe('ENODATA');
    expect(await resolver.resolve4(d.aFallback)).toEqual([SMTP_IP]);
    expect(await errorCode(resolver.resolve4(d.noMail))).toBe('ENODATA');
    expect(await errorCode(resolver.resolveMx(d.nonexistent))).toBe('ENOTFOUND');
    expect(await errorCode(resolver.resolveMx(d.servfail))).toBe('ESERVFAIL');
  });

  it('counts the questions it receives', async () => {
    const before = net.dnsQueryCount(net.domains.catchAll, 'MX');
    await resolver.resolveMx(net.domains.catchAll);
    await resolver.resolveMx(net.domains.catchAll.toUpperCase());
    expect(net.dnsQueryCount(net.domains.catchAll, 'MX')).toBe(before + 2);
    expect(net.dnsLog.some((q) => q.name === net.domains.catchAll && q.type === 'MX')).toBe(true);
  });
});

describe('fake SMTP', () => {
  it('answers RCPT TO per recipient domain', async () => {
    const d = net.domains;
    expect(await rcptCode(`alice@${d.deliverable}`)).toBe(250);
    expect(await rcptCode(`zed@${d.deliverable}`)).toBe(550);
    expect(await rcptCode(`anyone@${d.catchAll}`)).toBe(250);
    expect(await rcptCode(`alice@${d.rejecting}`)).toBe(550);
    expect(await rcptCode(`alice@${d.policy}`)).toBe(550);
    expect(await rcptCode(`alice@${d.mailboxFull}`)).toBe(552);
    expect(await rcptCode(`alice@${d.mailboxFull452}`)).toBe(452);
    expect(await rcptCode(`alice@${d.greylisted}`)).toBe(451);
    expect(await rcptCode(`alice@${d.greylisted}`)).toBe(451);
    expect(await rcptCode(`alice@${d.unicodeAscii}`)).toBe(250);
    expect(await rcptCode(`alice@${d.disposable}`)).toBe(250);
    expect(await rcptCode(`alice@${d.freeProvider}`)).toBe(250);
    expect(await rcptCode('alice@not-in-the-zone.test')).toBe(550);
  });

  it('greylists an address once, then accepts it', async () => {
    const address = `once@${net.domains.greylistOnce}`;
    expect(await rcptCode(address)).toBe(451);
    expect(await rcptCode(address)).toBe(250);
  });

  it('answers the slow domain only after slowMs', async () => {
    await expect(rcptCode(`alice@${net.domains.slow}`)).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('keeps the tarpit silent and nothing listening on 127.0.0.2', async () => {
    const tarpit = await openSmtpSession(TARPIT_IP, net.smtpPort, 300).catch((e: SmtpFailure) => e);
    expect(tarpit).toBeInstanceOf(SmtpFailure);
    expect((tarpit as SmtpFailure).kind).toBe('timeout');
    expect(net.smtpLog.some((c) => c.localAddress === TARPIT_IP)).toBe(true);
    const dead = await openSmtpSession(DEAD_IP, net.smtpPort, 300).catch((e: SmtpFailure) => e);
    expect((dead as SmtpFailure).kind).toBe('connect');
  });

  it('logs every command of every connection', async () => {
    const address = `bob@${net.domains.deliverable}`;
    await rcptCode(address);
    const [connection] = net
      .connectionsFor(net.domains.deliverable)
      .filter((c) => c.commands.includes(`RCPT TO:<${address}>`));
    expect(connection?.commands).toEqual([
      'EHLO fake-net.test',
      'MAIL FROM:<probe@fake-net.test>',
      `RCPT TO:<${address}>`,
      'QUIT',
    ]);
    expect(net.allCommands()).toContain(`RCPT TO:<${address}>`);
  });
});

describe('list-backed domains', () => {
  it('uses a disposable domain and a free provider that really are in the npm lists', () => {
    expect(isDisposable(net.domains.disposable)).toBe(true);
    expect(isFreeProvider(net.domains.freeProvider)).toBe(true);
    expect(isDisposable(net.domains.deliverable) || isFreeProvider(net.domains.deliverable)).toBe(false);
  });
});

describe('configuration helpers', () => {
  it('point an engine and a child-process service at the fake network', () => {
    const config = engineConfigForFakeNet(net);
    expect(config).toMatchObject({
      dnsServers: [net.dnsServer],
      smtpPort: net.smtpPort,
      allowPrivateMx: true,
    });
    expect(config.smtpTimeoutMs).toBeLessThanOrEqual(1000);
    expect(fakeNetEnv(net)).toMatchObject({
      DNS_SERVERS: net.dnsServer,
      SMTP_PORT: String(net.smtpPort),
      ALLOW_PRIVATE_MX: '1',
      SMTP_TIMEOUT_MS: String(config.smtpTimeoutMs),
      GREYLIST_RETRY_MS: String(config.greylistRetryMs),
    });
    expect(net.dnsServer).toMatch(/^127\.0\.0\.1:\d+$/);
  });
});
