/**
 * The provider world answers as its catalogue says: DNS (MX sets, equal preferences, wildcard
 * names), the providers' exact reply texts (multi-line included), greylisting with its window,
 * connection limits, per-connection caps, the error limit, the directory-harvest guard, slow
 * greetings and tarpits — spoken to with the engine's own SMTP client over real sockets.
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSmtpSession, type SmtpReply, type SmtpSession } from '../../engine/smtp-session';
import { type ProviderWorld, startProviderWorld } from './world';

let world: ProviderWorld;
let resolver: InstanceType<typeof dns.Resolver>;
beforeAll(async () => {
  world = await startProviderWorld({
    greylistWindowMs: 400,
    pregreetWaitMs: 300,
    greetingDelayMs: 300,
    eximRcptDelayMs: 0,
    slowRcptMs: 300,
  });
  resolver = new dns.Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([world.dnsServer]);
});
afterAll(() => world?.stop());

const ip = (host: string) => world.hostIps.get(host) ?? '';
const open = (host: string): Promise<SmtpSession> => openSmtpSession(ip(host), world.smtpPort, 2000);

/** EHLO and MAIL FROM on a new session at `host`. */
async function ready(host: string): Promise<SmtpSession> {
  const session = await open(host);
  expect((await session.command('EHLO verimark.test')).code).toBe(250);
  expect((await session.command('MAIL FROM:<probe@verimark.test>')).code).toBe(250);
  return session;
}
const rcpt = (session: SmtpSession, email: string): Promise<SmtpReply> =>
  session.command(`RCPT TO:<${email}>`);

describe('DNS', () => {
  it('serves the providers’ MX sets, equal preferences included', async () => {
    const yahoo = await resolver.resolveMx('yahoo.com');
    expect(yahoo.map((r) => r.priority)).toEqual([1, 1, 1]);
    expect((await resolver.resolveMx('gmail.com')).map((r) => r.exchange)).toContain(
      'gmail-smtp-in.l.google.com',
    );
    expect(await resolver.resolve4('mx0b-00123456.pphosted.com')).toEqual([ip('mx0b-00123456.pphosted.com')]);
  });

  it('answers wildcard names: each its own MX host name, all on one address', async () => {
    const [a] = await resolver.resolveMx(world.silentWildcard(7));
    const [b] = await resolver.resolveMx(world.silentWildcard(8));
    expect(a?.exchange).toBe('mx.u7.evil.test');
    expect(b?.exchange).toBe('mx.u8.evil.test');
    expect(await resolver.resolve4('mx.u8.evil.test')).toEqual(await resolver.resolve4('mx.u7.evil.test'));
    await expect(resolver.resolveMx('nothing.evil.test')).rejects.toThrow();
  });
});

describe('reply texts', () => {
  it('Gmail refuses an unknown account with its four-line 550-5.1.1', async () => {
    const session = await ready('gmail-smtp-in.l.google.com');
    const reply = await rcpt(session, 'nobody.here@gmail.com');
    expect(reply).toMatchObject({ code: 550, enhanced: '5.1.1' });
    expect(reply.text).toMatch(
      /^5\.1\.1 The email account that you tried to reach does not exist\. Please try/,
    );
    expect((await rcpt(session, 'alice@gmail.com')).code).toBe(250);
    expect((await rcpt(session, 'carol.full@gmail.com')).enhanced).toBe('4.2.2');
    await session.quit();
    const [conn] = world.connectionsFor('nobody.here@gmail.com');
    expect(conn?.lines.filter((l) => l.from === 'S' && l.text.startsWith('550')).length).toBe(4);
  });

  it('Microsoft 365 with edge blocking refuses 5.4.1; without it accepts anyone', async () => {
    const dbeb = await ready('contoso-test.mail.protection.outlook.com');
    expect((await rcpt(dbeb, 'ghost@contoso.test')).text).toMatch(
      /^5\.4\.1 Recipient address rejected: Access denied/,
    );
    await dbeb.quit();
    const open365 = await ready('fabrikam-test.mail.protection.outlook.com');
    expect((await rcpt(open365, 'zz-not-there@fabrikam.test')).code).toBe(250);
    await open365.quit();
  });

  it('refuses to relay for a domain the host does not serve', async () => {
    const session = await ready('mx.postfix-site.test');
    expect((await rcpt(session, 'alice@gmail.com')).text).toMatch(/Relay access denied/);
    await session.quit();
  });
});

describe('behaviours', () => {
  it('greylists a triplet until its window has passed since the first try', async () => {
    const first = await ready('mail.postgrey-site.test');
    expect((await rcpt(first, 'alice@postgrey-site.test')).text).toMatch(/Greylisted, see http:\/\/postgrey/);
    expect((await rcpt(first, 'alice@postgrey-site.test')).code).toBe(450);
    await first.quit();
    await new Promise((r) => setTimeout(r, 450));
    const later = await ready('mail.postgrey-site.test');
    expect((await rcpt(later, 'alice@postgrey-site.test')).code).toBe(250);
    expect((await rcpt(later, 'bob@postgrey-site.test')).code).toBe(450);
    await later.quit();
  });

  it('Exim refuses connections past its per-client limit with its 421', async () => {
    const a = await open('mx.exim-site.test');
    const b = await open('mx.exim-site.test');
    const c = await open('mx.exim-site.test');
    expect([a.greeting.code, b.greeting.code]).toEqual([220, 220]);
    expect(c.greeting.code).toBe(421);
    expect(c.greeting.text).toBe(
      'Too many concurrent SMTP connections from this IP address; please try again later.',
    );
    await Promise.all([a.quit(), b.quit(), c.quit()]);
    expect(world.maxOpen('mx.exim-site.test')).toBe(3);
  });

  it('Proofpoint’s harvest guard refuses with 5.7.1 and drops after two invalid recipients', async () => {
    const session = await ready('mx0a-00123456.pphosted.com');
    for (const ghost of ['ghost1', 'ghost2'])
      expect((await rcpt(session, `${ghost}@umbrella.test`)).text).toBe('5.1.1 User Unknown');
    const refused = await rcpt(session, 'alice@umbrella.test');
    expect(refused).toMatchObject({ code: 550, enhanced: '5.7.1' });
    await expect(session.command('RSET')).rejects.toThrow();
    const fresh = await ready('mx0a-00123456.pphosted.com');
    expect((await rcpt(fresh, 'alice@umbrella.test')).code).toBe(250);
    await fresh.quit();
  });

  it('Postfix answers 421 too many errors after its hard error limit, then closes', async () => {
    const session = await ready('mx.strict-postfix.test');
    for (const ghost of ['ghost1', 'ghost2', 'ghost3'])
      expect((await rcpt(session, `${ghost}@strict-postfix.test`)).code).toBe(550);
    const over = await rcpt(session, 'alice@strict-postfix.test');
    expect(over.code).toBe(421);
    expect(over.text).toBe('4.7.0 mx.strict-postfix.test Error: too many errors');
    await session.quit();
  });

  it('Outlook.com caps recipients per connection with 452 4.5.3', async () => {
    const session = await ready('outlook-com.olc.protection.outlook.com');
    for (const local of ['alice', 'bob', 'ghost1']) await rcpt(session, `${local}@outlook.com`);
    const fourth = await rcpt(session, 'carol@outlook.com');
    expect(fourth).toMatchObject({ code: 452, enhanced: '4.5.3' });
    await session.quit();
  });

  it('Exim closes a connection past its messages-per-connection limit', async () => {
    const session = await open('mx.exim-site.test');
    await session.command('EHLO verimark.test');
    for (let i = 0; i < 4; i++) expect((await session.command('MAIL FROM:<p@verimark.test>')).code).toBe(250);
    expect((await session.command('MAIL FROM:<p@verimark.test>')).text).toBe(
      'too many messages in this connection',
    );
    await session.quit();
  });

  it('postscreen sends 220- at once and the last greeting line after its greet wait', async () => {
    const started = Date.now();
    const session = await open('mx.postscreen-site.test');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(session.greeting.code).toBe(220);
    await session.quit();
    const [conn] = world.connections('mx.postscreen-site.test');
    expect(conn?.lines[0]?.text).toBe('220-mx.postscreen-site.test ESMTP Postfix (Debian/GNU)');
  });

  it('a tarpit accepts the connection and never speaks', async () => {
    const socket = net.connect(world.smtpPort, ip('mx1.tarpit.test'));
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    await new Promise((r) => socket.once('connect', r));
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    expect(received).toEqual([]);
    expect(world.connections('mx1.tarpit.test').length).toBeGreaterThan(0);
  });

  it('the slow host answers RCPT only after its delay, the fast one at once; both take ok… only', async () => {
    for (const [host, domain, min] of [
      ['mx.slow.test', world.slowDomain, 250],
      ['mx.fast.test', world.fastDomain, 0],
    ] as const) {
      const session = await ready(host);
      const started = Date.now();
      expect((await rcpt(session, `ok-row-1@${domain}`)).code).toBe(250);
      expect(Date.now() - started).toBeGreaterThanOrEqual(min);
      expect((await rcpt(session, `vm-0123@${domain}`)).code).toBe(550);
      await session.quit();
    }
    const tarpit = await resolver.resolveMx(world.tarpitDomain);
    expect(tarpit.map((r) => r.exchange).sort()).toEqual(['mx1.tarpit.test', 'mx2.tarpit.test']);
  });

  it('the limited wildcard host refuses a third connection', async () => {
    const limited = world.hostIps.get('limited.evil.test') ?? '';
    const sessions = await Promise.all([1, 2, 3].map(() => openSmtpSession(limited, world.smtpPort, 2000)));
    expect(sessions.map((s) => s.greeting.code).sort()).toEqual([220, 220, 421]);
    await Promise.all(sessions.map((s) => s.quit()));
  });
});

describe('ground truth', () => {
  it('covers every provider and behaviour, with all three truths', () => {
    const providers = new Set(world.addresses.map((a) => a.provider.split(' ')[0]));
    for (const name of [
      'Gmail',
      'Google',
      'Microsoft',
      'Outlook.com',
      'Yahoo',
      'Mimecast',
      'Proofpoint',
      'Postfix',
      'Exim',
    ])
      expect(providers).toContain(name);
    const truths = new Set(world.addresses.map((a) => a.truth));
    expect([...truths].sort()).toEqual(['deliverable', 'hidden', 'undeliverable']);
    expect(world.addresses.find((a) => a.email === 'ghost@fabrikam.test')?.truth).toBe('hidden');
    expect(world.addresses.find((a) => a.email === 'dave.gone@gmail.com')?.truth).toBe('undeliverable');
    expect(world.addresses.find((a) => a.email === 'carol.full@gmail.com')?.truth).toBe('deliverable');
  });
});
