/**
 * RCPT answers exactly as real mail servers send them (texts from their documentation and
 * public bounce collections), read the way the SMTP client parses them, and the verdict each
 * gets (docs/design.md §3, "Classification, as real mail servers answer").
 */

import type { Reason, Verdict } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { useScriptedSmtp } from '../testing/scripted-smtp';
import { transientVerdict, verdictForRcpt } from './classify';
import { createResolver } from './dns-route';
import { createLimits } from './limits';
import { providerOf } from './provider';
import { probe } from './smtp-probe';
import { ReplyParser, type SmtpReply } from './smtp-session';
import type { EngineConfig } from './types';

const probeConfig: EngineConfig = {
  dnsServers: [],
  smtpPort: 25,
  heloName: 'probe.verimark.test',
  mailFrom: 'probe@verimark.test',
  smtpTimeoutMs: 1000,
  greylistRetryMs: 0,
  allowPrivateMx: true,
  globalConcurrency: 2,
  perHostConcurrency: 1,
};

/** Parses raw reply lines (multi-line allowed) the way the SMTP client does. */
const reply = (...lines: string[]): SmtpReply => {
  const [parsed] = new ReplyParser().push(`${lines.join('\r\n')}\r\n`);
  if (!parsed) throw new Error('no reply');
  return parsed;
};

type Case = [server: string, lines: string[], status: Verdict, reason: Reason];

const cases: Case[] = [
  // Postfix 3.x
  [
    'Postfix, unknown local user',
    ['550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in local recipient table'],
    'undeliverable',
    'rejected_email',
  ],
  [
    'Postfix + postgrey',
    [
      '450 4.2.0 <alice@example.org>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.org.html',
    ],
    'unknown',
    'greylisted',
  ],
  [
    'Postfix, client on a DNSBL',
    [
      '554 5.7.1 Service unavailable; Client host [192.0.2.7] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/192.0.2.7',
    ],
    'unknown',
    'blocked',
  ],
  // Measured by `npm run field` (Postfix 3.7 postscreen, postscreen_blacklist_action = enforce)
  ['Postfix postscreen, client blocked', ['550 5.3.2 Service currently unavailable'], 'unknown', 'blocked'],
  ['Postfix, relay denied', ['554 5.7.1 <alice@example.org>: Relay access denied'], 'unknown', 'blocked'],
  [
    'Postfix, HELO check',
    ['504 5.5.2 <localhost>: Helo command rejected: need fully-qualified hostname'],
    'unknown',
    'blocked',
  ],
  // Exim 4 (no enhanced status codes by default)
  ['Exim, no such mailbox', ['550 Unrouteable address'], 'undeliverable', 'rejected_email'],
  [
    'Exim, DNSBL',
    ['550 Rejected because 127.0.0.1 is in a black list at zen.spamhaus.org'],
    'unknown',
    'blocked',
  ],
  ['Exim, relay', ['550 relay not permitted'], 'unknown', 'blocked'],
  [
    'Exim, sender verify callout',
    [
      '550-Verification failed for <probe@verimark.test>',
      '550-Unrouteable address',
      '550 Sender verify failed',
    ],
    'unknown',
    'blocked',
  ],
  ['Exim, unknown text', ['550 Administrative prohibition'], 'unknown', 'smtp_error'],
  // Microsoft 365 / Exchange Online
  [
    'Microsoft 365, directory-based edge blocking (no such recipient)',
    [
      '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]',
    ],
    'undeliverable',
    'rejected_email',
  ],
  [
    'Microsoft 365, banned sending IP',
    [
      '550 5.7.606 Access denied, banned sending IP [192.0.2.7]. To request removal from this list please visit https://sender.office.com/',
    ],
    'unknown',
    'blocked',
  ],
  [
    'Outlook.com, no such mailbox',
    ['550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302).'],
    'undeliverable',
    'rejected_email',
  ],
  // Gmail
  [
    'Gmail, no such account',
    [
      '550-5.1.1 The email account that you tried to reach does not exist. Please try',
      "550-5.1.1 double-checking the recipient's email address for typos or",
      '550-5.1.1 unnecessary spaces. For more information, go to',
      '550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1si123.45 - gsmtp',
    ],
    'undeliverable',
    'rejected_email',
  ],
  [
    'Gmail, receiving mail at a rate (the mailbox exists)',
    [
      '450-4.2.1 The user you are trying to contact is receiving mail at a rate that',
      '450-4.2.1 prevents additional messages from being delivered. Please resend your',
      '450-4.2.1 message at a later time. If the user is able to receive mail at that',
      '450-4.2.1 time, your message will be delivered. For more information, go to',
      '450 4.2.1  https://support.google.com/mail/?p=ReceivingRate a1si123.45 - gsmtp',
    ],
    'deliverable',
    'accepted_email',
  ],
  [
    'Gmail, unsolicited mail from our IP',
    [
      '421-4.7.0 [192.0.2.7      15] Our system has detected an unusual rate of',
      '421-4.7.0 unsolicited mail originating from your IP address. To protect our',
      '421-4.7.0 users from spam, mail sent from your IP address has been temporarily',
      '421 4.7.0 rate limited. https://support.google.com/mail/?p=UnsolicitedRateLimitError - gsmtp',
    ],
    'unknown',
    'blocked',
  ],
  [
    'Gmail, over quota',
    [
      "452-4.2.2 The recipient's inbox is out of storage space.",
      '452 4.2.2 https://support.google.com/mail/?p=OverQuotaTemp - gsmtp',
    ],
    'risky',
    'mailbox_full',
  ],
  [
    'Gmail, account disabled',
    [
      '550-5.2.1 The email account that you tried to reach is disabled.',
      '550 5.2.1 https://support.google.com/mail/?p=DisabledUser - gsmtp',
    ],
    'undeliverable',
    'rejected_email',
  ],
  // Yahoo
  [
    'Yahoo, blocklisted sender',
    [
      "553 5.7.1 [BL21] Connections will not be accepted from 192.0.2.7, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes",
    ],
    'unknown',
    'blocked',
  ],
  [
    'Yahoo, no such user',
    [
      "554 delivery error: dd This user doesn't have a yahoo.com account (x@yahoo.com) [0] - mta1.mail.gq1.yahoo.com",
    ],
    'undeliverable',
    'rejected_email',
  ],
];

describe('RCPT answers of real mail servers', () => {
  it.each(cases)('%s', (_server, lines, status, reason) => {
    expect(verdictForRcpt(reply(...lines), null)).toEqual({ status, reason });
  });

  it('never calls a refusal about us undeliverable, whatever mailbox words it also holds', () => {
    const aboutUs = cases.filter(([, , , reason]) => reason === 'blocked');
    for (const [, lines] of aboutUs) expect(verdictForRcpt(reply(...lines), null).status).toBe('unknown');
  });
});

describe('catch-all probe answered 4xx', () => {
  it('leaves a 250 for the real address deliverable when the random address got 452 4.5.3', () => {
    // The probe's 452 makes catchAll null (inconclusive); the real address decides.
    expect(verdictForRcpt(reply('250 2.1.5 Ok'), null)).toEqual({
      status: 'deliverable',
      reason: 'accepted_email',
    });
  });
});

describe('providers by MX host name', () => {
  it.each([
    ['gmail-smtp-in.l.google.com', 'google', true, false],
    ['alt4.gmail-smtp-in.l.google.com', 'google', true, false],
    ['aspmx.l.google.com', 'google', false, false],
    ['hotmail-com.olc.protection.outlook.com', 'microsoft', true, false],
    ['mx1.hotmail.com', 'microsoft', true, false],
    ['contoso-com.mail.protection.outlook.com', 'microsoft', false, false],
    ['mta5.am0.yahoodns.net', 'yahoo', false, true],
    ['mx-aol.mail.gm0.yahoodns.net', 'yahoo', false, true],
    ['mx0a-00123456.pphosted.com', 'proofpoint', false, false],
    ['eu-smtp-inbound-1.mimecast.com', 'mimecast', false, false],
    ['MX01.MAIL.ICLOUD.COM.', 'apple', false, false],
  ] as const)('%s → %s', (host, name, skipCatchAllProbe, acceptsAll) => {
    expect(providerOf(host)).toEqual({ name, skipCatchAllProbe, acceptsAll });
  });

  it('knows nothing of other hosts, nor of look-alike names', () => {
    expect(providerOf('mx.example.org')).toBeNull();
    expect(providerOf('google.com.evil.example')).toBeNull();
    expect(providerOf('notgoogle.com')).toBeNull();
    expect(providerOf(null)).toBeNull();
  });

  it('a 250 from Yahoo/AOL consumer mail is accept_all_provider in either mode', () => {
    const yahoo = providerOf('mta6.am0.yahoodns.net');
    expect(verdictForRcpt(reply('250 recipient <x@yahoo.com> ok'), null, yahoo)).toEqual({
      status: 'unknown',
      reason: 'accept_all_provider',
    });
    expect(verdictForRcpt(reply('250 ok'), false, yahoo).reason).toBe('accept_all_provider');
  });
});

const scripted = useScriptedSmtp();

describe('the same answers over a real SMTP conversation (scripted server on loopback)', () => {
  it.each(cases)('%s', async (_server, lines, status, reason) => {
    const server = await scripted('220 mx.example.org ESMTP\r\n', (line) =>
      line === 'QUIT'
        ? '221 2.0.0 Bye\r\n'
        : line.startsWith('RCPT')
          ? `${lines.join('\r\n')}\r\n`
          : '250 ok\r\n',
    );
    const ctx = {
      config: { ...probeConfig, smtpPort: server.port },
      resolver: createResolver([], 500),
      limits: createLimits(2, 1),
      logger: { debug: () => {}, warn: () => {} },
    };
    const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
    const outcome = await probe(ctx, {
      email: 'alice@example.org',
      domain: 'example.org',
      hosts: [{ name: '127.0.0.1', priority: 10 }],
      catchAllMode: false,
      scope,
    });
    if (outcome.kind === 'answered') expect(verdictForRcpt(outcome.reply, null)).toEqual({ status, reason });
    else if (outcome.kind === 'transient')
      expect(transientVerdict(outcome.reply)).toEqual({ status, reason });
    else throw new Error(`unexpected outcome ${outcome.kind}`);
    expect(server.lines).not.toContain('DATA');
  });
});
