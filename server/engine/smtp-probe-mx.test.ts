/**
 * Moving on through MX hosts as a real sender does (docs/design.md §3): a greeting other than
 * 220 or a dropped connection sends the probe to the next host. Each MX "host" here is an IP
 * literal mapped to its own scripted server by the probe's `open` seam (the proxy uses it too).
 */
import { describe, expect, it } from 'vitest';
import { testEngineConfig } from '../testing/engine-config';
import { type ScriptedSmtp, useScriptedSmtp } from '../testing/scripted-smtp';
import { verdictForRcpt } from './classify';
import { createResolver } from './dns-route';
import { createLimits } from './limits';
import { providerOf } from './provider';
import { type ProbeRequest, probe } from './smtp-probe';
import { openSmtpSession } from './smtp-session';

const scripted = useScriptedSmtp();
const silent = { debug: () => {}, warn: () => {} };
const config = testEngineConfig();

/** Probes with MX hosts 10.0.0.1, 10.0.0.2, … each answered by the server at the same index. */
function probeThrough(servers: ScriptedSmtp[], extra: Partial<ProbeRequest> = {}) {
  const ports = new Map(servers.map((s, i) => [`10.0.0.${i + 1}`, s.port]));
  const ctx = {
    config,
    resolver: createResolver([], 500),
    limits: createLimits(2, 1),
    logger: silent,
    // Generous: no test here waits for a timeout, and a loaded machine must not turn a late reply into one.
    open: (address: string) => openSmtpSession('127.0.0.1', ports.get(address) ?? 1, 5_000),
  };
  const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
  const hosts = servers.map((_, i) => ({ name: `10.0.0.${i + 1}`, priority: (i + 1) * 10 }));
  return probe(ctx, {
    email: 'alice@example.com',
    domain: 'example.com',
    hosts,
    catchAllMode: true,
    scope,
    ...extra,
  });
}

const accepting =
  (rcpt = '250 2.1.5 Ok\r\n') =>
  (line: string) =>
    line === 'QUIT' ? '221 2.0.0 Bye\r\n' : line.startsWith('RCPT') ? rcpt : '250 ok\r\n';

describe('next MX host', () => {
  it('moves on after a 421 greeting, as Postfix does, and delivers through MX 20', async () => {
    const busy = await scripted(
      '421 4.7.0 mx1.example.com Error: too many connections\r\n',
      () => '221 bye\r\n',
    );
    const good = await scripted('220 mx2.example.com ESMTP Postfix\r\n', accepting());
    const outcome = await probeThrough([busy, good]);
    expect(outcome).toMatchObject({ kind: 'answered', host: '10.0.0.2', reply: { code: 250 } });
    expect(busy.lines).not.toContain('MAIL FROM:<probe@verimark.test>');
  });

  it("moves on after a 554 greeting, and after Yahoo's blocklist greeting", async () => {
    const refusing = await scripted(
      '554 5.7.1 mx1.example.com: no SMTP service here\r\n',
      () => '221 bye\r\n',
    );
    const yahoo = await scripted(
      "553 5.7.1 [BL21] Connections will not be accepted from 192.0.2.7, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes\r\n",
      () => '221 bye\r\n',
    );
    const good = await scripted('220 ready\r\n', accepting());
    expect(await probeThrough([refusing, yahoo, good])).toMatchObject({ kind: 'answered', host: '10.0.0.3' });
    // With no host left, the refusing greeting decides: about us, so blocked (not undeliverable).
    expect(await probeThrough([refusing, yahoo])).toMatchObject({ kind: 'refused', reason: 'blocked' });
  });

  it('moves on when the first host drops the connection right after connecting', async () => {
    const closer = await scripted(null, () => null);
    const good = await scripted('220 ready\r\n', accepting());
    expect(await probeThrough([closer, good])).toMatchObject({ kind: 'answered', host: '10.0.0.2' });
  });
});

describe('catch-all probe', () => {
  it('is inconclusive (null) when the random address gets 452 4.5.3 too many recipients', async () => {
    let rcpts = 0;
    const server = await scripted('220 ready\r\n', (line) => {
      if (!line.startsWith('RCPT')) return line === 'QUIT' ? '221 bye\r\n' : '250 ok\r\n';
      rcpts++;
      return rcpts === 1 ? '250 2.1.5 Ok\r\n' : '452 4.5.3 Error: too many recipients\r\n';
    });
    expect(await probeThrough([server])).toMatchObject({
      kind: 'answered',
      catchAll: null,
      reply: { code: 250 },
    });
  });

  it('is skipped for consumer Gmail and probed for a Microsoft 365 tenant', async () => {
    const gmail = await scripted('220 mx.google.com ESMTP a1si - gsmtp\r\n', accepting());
    await probeThrough([gmail], { provider: providerOf('gmail-smtp-in.l.google.com') });
    expect(gmail.lines.map((l) => l.split(/[ :]/)[0])).toEqual(['EHLO', 'MAIL', 'RCPT', 'QUIT']);
    const tenant = await scripted(
      '220 AM0PR01.outlook.office365.com Microsoft ESMTP MAIL Service ready\r\n',
      accepting(),
    );
    const outcome = await probeThrough([tenant], {
      provider: providerOf('contoso-com.mail.protection.outlook.com'),
    });
    expect(outcome).toMatchObject({ kind: 'answered', catchAll: true });
    expect(tenant.lines).toContain('RSET');
  });
});

describe('PIPELINING is never assumed', () => {
  it('sends each command only after the previous reply, even when the server offers PIPELINING', async () => {
    // Slow replies leave a pipelining client time to send ahead.
    const server = await scripted(
      '220 ready\r\n',
      (line) =>
        line === 'QUIT'
          ? '221 bye\r\n'
          : line.startsWith('EHLO')
            ? '250-mx.example\r\n250-PIPELINING\r\n250 8BITMIME\r\n'
            : '250 ok\r\n',
      { replyDelayMs: 30 },
    );
    const outcome = await probeThrough([server]);
    expect(outcome).toMatchObject({ kind: 'answered', catchAll: true });
    expect(server.lines.length).toBeGreaterThanOrEqual(6);
    expect(server.early).toBe(0);
  });
});

describe('Postfix postscreen, with the exact replies `npm run field` measured', () => {
  it("waits out postscreen's two-part greeting, and its 550 5.3.2 to RCPT is blocked", async () => {
    // postscreen sends "220-" at once and the final "220 " after postscreen_greet_wait.
    const server = await scripted(
      '220-mx-pf.field.test ESMTP Postfix\r\n',
      accepting('550 5.3.2 Service currently unavailable\r\n'),
      { lateGreeting: { text: '220 mx-pf.field.test ESMTP Postfix\r\n', afterMs: 200 } },
    );
    const outcome = await probeThrough([server]);
    expect(outcome).toMatchObject({ kind: 'answered', reply: { code: 550, enhanced: '5.3.2' } });
    if (outcome.kind !== 'answered') throw new Error(outcome.kind);
    expect(verdictForRcpt(outcome.reply, outcome.catchAll)).toEqual({ status: 'unknown', reason: 'blocked' });
  });

  it('takes a 521 5.3.2 greeting on the only MX host as blocked, not an error', async () => {
    const dropping = await scripted('521 5.3.2 Service currently unavailable\r\n', () => null);
    expect(await probeThrough([dropping])).toMatchObject({ kind: 'refused', reason: 'blocked' });
  });
});
