/**
 * How each simulated provider's MX hosts talk: greeting, EHLO, and the replies to MAIL, RCPT,
 * RSET, QUIT, in the texts the providers are documented (or publicly seen in bounces) to send.
 * Recipient answers that depend on the mailbox are in ./sites.ts. Reply texts already used by
 * server/engine/classify-real-servers.test.ts are the same here, byte for byte.
 *
 * Sources: Google's SMTP error reference (support.google.com/a/answer/3726730), Microsoft's
 * Exchange Online NDR reference, Yahoo's postmaster error codes, Mimecast's "SMTP Error Codes"
 * knowledge article, Postfix's smtpd(8)/postconf(5) and postgrey(8) manuals, Exim's
 * specification (and the replies the exim4 binary installed here carries). Where a provider's
 * banner or EHLO list is not documented, the shape of public transcripts is used and said so.
 */

/** Reply lines without CRLF; several lines make a multi-line reply (`250-…`, then `250 …`). */
export type Lines = readonly string[];

export interface HostProfile {
  /** Provider name as the engine's server/engine/provider.ts reports it (null: none). */
  provider: string | null;
  greeting(host: string): Lines;
  ehlo(host: string, helo: string, client: string): Lines;
  helo(host: string, helo: string, client: string): Lines;
  mailOk(sender: string): Lines;
  rset: Lines;
  noop: Lines;
  quit(host: string): Lines;
  /** RCPT before MAIL. */
  needMail: Lines;
  badAddress(address: string): Lines;
  /** RCPT for a domain this host does not serve. */
  relayDenied(address: string): Lines;
  /** DATA is never sent by the prober; a host that sees it says no. */
  noData: Lines;
  unknownCommand: Lines;
}

/** Multi-line reply: every line but the last with `code-`, the last with `code `. */
export function multiline(code: string, texts: readonly string[]): Lines {
  return texts.map((text, i) => `${code}${i === texts.length - 1 ? ' ' : '-'}${text}`);
}

const gsmtp = (n: number) => `a${n}si${1000 + n}.${(n * 7) % 100} - gsmtp`;
let googleId = 0;
const gid = () => gsmtp(++googleId);

/** Gmail and Google Workspace MX hosts (gmail-smtp-in.l.google.com, aspmx.l.google.com, …). */
export const GOOGLE: HostProfile = {
  provider: 'google',
  greeting: () => [`220 mx.google.com ESMTP ${gid()}`],
  ehlo: (_host, _helo, client) =>
    multiline('250', [
      `mx.google.com at your service, [${client}]`,
      'SIZE 157286400',
      '8BITMIME',
      'STARTTLS',
      'ENHANCEDSTATUSCODES',
      'PIPELINING',
      'CHUNKING',
      'SMTPUTF8',
    ]),
  helo: () => ['250 mx.google.com at your service'],
  mailOk: () => [`250 2.1.0 OK ${gid()}`],
  rset: ['250 2.1.5 Flushed a1si1001.7 - gsmtp'],
  noop: ['250 2.0.0 OK a1si1001.7 - gsmtp'],
  quit: () => ['221 2.0.0 closing connection a1si1001.7 - gsmtp'],
  needMail: ['503 5.5.1 MAIL first. a1si1001.7 - gsmtp'],
  badAddress: () =>
    multiline('553', [
      '5.1.3 The recipient address <> is not a valid RFC 5321 address. For more',
      '5.1.3 information, go to https://support.google.com/a/answer/3221692 a1si1001.7 - gsmtp',
    ]),
  relayDenied: () => ['550 5.7.0 Mail relay denied a1si1001.7 - gsmtp'],
  noData: ['554 5.5.1 Error: no valid recipients a1si1001.7 - gsmtp'],
  unknownCommand: ['502 5.5.1 Unrecognized command. a1si1001.7 - gsmtp'],
};

/** Google's answers to RCPT, as in classify-real-servers.test.ts. */
export const GOOGLE_RCPT = {
  ok: (): Lines => [`250 2.1.5 OK ${gid()}`],
  noSuchUser: (): Lines =>
    multiline('550', [
      '5.1.1 The email account that you tried to reach does not exist. Please try',
      "5.1.1 double-checking the recipient's email address for typos or",
      '5.1.1 unnecessary spaces. For more information, go to',
      `5.1.1  https://support.google.com/mail/?p=NoSuchUser ${gid()}`,
    ]),
  disabled: (): Lines =>
    multiline('550', [
      '5.2.1 The email account that you tried to reach is disabled.',
      `5.2.1 https://support.google.com/mail/?p=DisabledUser ${gid()}`,
    ]),
  overQuota: (): Lines =>
    multiline('452', [
      "4.2.2 The recipient's inbox is out of storage space.",
      `4.2.2 https://support.google.com/mail/?p=OverQuotaTemp ${gid()}`,
    ]),
  receivingRate: (): Lines =>
    multiline('450', [
      '4.2.1 The user you are trying to contact is receiving mail at a rate that',
      '4.2.1 prevents additional messages from being delivered. Please resend your',
      '4.2.1 message at a later time. If the user is able to receive mail at that',
      '4.2.1 time, your message will be delivered. For more information, go to',
      `4.2.1  https://support.google.com/mail/?p=ReceivingRate ${gid()}`,
    ]),
};

/** Exchange Online Protection front ends (Microsoft 365 tenants and Outlook.com). */
export function microsoft(frontEnd: string): HostProfile {
  return {
    provider: 'microsoft',
    greeting: () => [
      `220 ${frontEnd}.mail.protection.outlook.com Microsoft ESMTP MAIL Service ready at Sat, 28 Nov 2026 01:51:06 +0000`,
    ],
    ehlo: (_host, _helo, client) =>
      multiline('250', [
        `${frontEnd}.mail.protection.outlook.com Hello [${client}]`,
        'SIZE 157286400',
        'PIPELINING',
        'DSN',
        'ENHANCEDSTATUSCODES',
        'STARTTLS',
        '8BITMIME',
        'BINARYMIME',
        'CHUNKING',
        'SMTPUTF8',
      ]),
    helo: (_host, _helo, client) => [`250 ${frontEnd}.mail.protection.outlook.com Hello [${client}]`],
    mailOk: () => ['250 2.1.0 Sender OK'],
    rset: ['250 2.0.0 Resetting'],
    noop: ['250 2.0.0 OK'],
    quit: () => ['221 2.0.0 Service closing transmission channel'],
    needMail: ['503 5.5.1 Bad sequence of commands'],
    badAddress: () => ['501 5.1.3 Invalid address'],
    relayDenied: (address) => [
      `550 5.7.64 TenantAttribution; Relay Access Denied [${frontEnd}.eop-nam11.prod.protection.outlook.com] <${address}>`,
    ],
    noData: ['554 5.5.1 Error: no valid recipients'],
    unknownCommand: ['500 5.3.3 Unrecognized command'],
  };
}

export const MICROSOFT_RCPT = {
  ok: (): Lines => ['250 2.1.5 Recipient OK'],
  /** Directory-based edge blocking: the tenant has no such recipient. */
  dbeb: (frontEnd: string): Lines => [
    `550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [${frontEnd}.eop-nam11.prod.protection.outlook.com]`,
  ],
  /** Outlook.com / Hotmail: no such mailbox. */
  outlookNoSuchUser: (frontEnd: string): Lines => [
    `550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [${frontEnd}.eop-EUR03.prod.protection.outlook.com]`,
  ],
  tooManyRecipients: (frontEnd: string): Lines => [
    `452 4.5.3 Too many recipients (AS780090) [${frontEnd}.eop-EUR03.prod.protection.outlook.com]`,
  ],
};

/** Yahoo / AOL consumer MX (`*.yahoodns.net`): every recipient is accepted at RCPT. Banner and EHLO: the shape of public transcripts. */
export function yahoo(proxy: string): HostProfile {
  return {
    provider: 'yahoo',
    greeting: () => [`220 ${proxy}.mail.yahoo.com ESMTP ready`],
    ehlo: () =>
      multiline('250', [`${proxy}.mail.yahoo.com`, 'PIPELINING', 'SIZE 41943040', '8BITMIME', 'STARTTLS']),
    helo: () => [`250 ${proxy}.mail.yahoo.com`],
    mailOk: (sender) => [`250 sender <${sender}> ok`],
    rset: ['250 reset ok'],
    noop: ['250 ok'],
    quit: () => ['221 Service Closing transmission'],
    needMail: ['503 5.5.1 need MAIL command'],
    badAddress: (address) => [`553 5.1.3 invalid address <${address}>`],
    relayDenied: (address) => [`554 5.7.1 relay not permitted for <${address}>`],
    noData: ['554 5.5.1 no valid recipients'],
    unknownCommand: ['500 5.5.1 unrecognized command'],
  };
}

export const YAHOO_RCPT = { ok: (address: string): Lines => [`250 recipient <${address}> ok`] };

/** Mimecast inbound gateways (`*-smtp-inbound-*.mimecast.com`). Banner and EHLO: the shape of public transcripts. */
export const MIMECAST: HostProfile = {
  provider: 'mimecast',
  greeting: (host) => [`220 ${host} ESMTP ${host.slice(0, 2)}-mta-1a2b3c`],
  ehlo: (_host, _helo, client) =>
    multiline('250', [
      `service.mimecast.com Hello [${client}]`,
      '8BITMIME',
      'PIPELINING',
      'SIZE 104857600',
      'STARTTLS',
    ]),
  helo: (_host, _helo, client) => [`250 service.mimecast.com Hello [${client}]`],
  mailOk: () => ['250 Sender OK'],
  rset: ['250 Reset OK'],
  noop: ['250 OK'],
  quit: () => ['221 Bye'],
  needMail: ['503 Bad sequence of commands'],
  badAddress: () => ['501 Invalid address'],
  relayDenied: () => ['550 Administrative prohibition - unable to validate recipient - envelope blocked'],
  noData: ['554 No valid recipients'],
  unknownCommand: ['500 Unrecognised command'],
};

/** Mimecast's documented replies (knowledge article "Mimecast SMTP Error Codes"). */
export const MIMECAST_RCPT = {
  ok: (): Lines => ['250 Recipient OK'],
  invalidRecipient: (): Lines => ['550 Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550'],
  /** Mimecast's greylisting answer. */
  greylisted: (): Lines => [
    '451 Internal resource temporarily unavailable - https://community.mimecast.com/docs/DOC-1369#451',
  ],
};

/** Proofpoint (sendmail-based MTA at `mx0a/mx0b-<id>.pphosted.com`): sendmail's reply texts. */
export const PROOFPOINT: HostProfile = {
  provider: 'proofpoint',
  greeting: (host) => [`220 ${host} ESMTP mfa-m0123456`],
  ehlo: (host, helo, client) =>
    multiline('250', [
      `${host} Hello ${helo} [${client}], pleased to meet you`,
      'ENHANCEDSTATUSCODES',
      'PIPELINING',
      '8BITMIME',
      'SIZE 52428800',
      'STARTTLS',
      'HELP',
    ]),
  helo: (host, helo, client) => [`250 ${host} Hello ${helo} [${client}], pleased to meet you`],
  mailOk: (sender) => [`250 2.1.0 <${sender}>... Sender ok`],
  rset: ['250 2.0.0 Reset state'],
  noop: ['250 2.0.0 OK'],
  quit: (host) => [`221 2.0.0 ${host} closing connection`],
  needMail: ['503 5.0.0 Need MAIL before RCPT'],
  badAddress: (address) => [`553 5.1.3 <${address}>... User address required`],
  relayDenied: (address) => [`550 5.7.1 <${address}>... Relaying denied`],
  noData: ['503 5.0.0 Need RCPT (recipient)'],
  unknownCommand: ['500 5.5.1 Command unrecognized'],
};

export const PROOFPOINT_RCPT = {
  ok: (address: string): Lines => [`250 2.1.5 <${address}>... Recipient ok`],
  userUnknown: (): Lines => ['550 5.1.1 User Unknown'],
  /** The directory-harvest guard's refusal (after several invalid recipients on one connection). */
  harvest: (address: string): Lines => [`550 5.7.1 <${address}>... Too many invalid recipients`],
};

/** Postfix 3.x smtpd (Debian build). */
export const POSTFIX: HostProfile = {
  provider: null,
  greeting: (host) => [`220 ${host} ESMTP Postfix (Debian/GNU)`],
  ehlo: (host) =>
    multiline('250', [
      host,
      'PIPELINING',
      'SIZE 10240000',
      'VRFY',
      'ETRN',
      'STARTTLS',
      'ENHANCEDSTATUSCODES',
      '8BITMIME',
      'DSN',
      'SMTPUTF8',
      'CHUNKING',
    ]),
  helo: (host) => [`250 ${host}`],
  mailOk: () => ['250 2.1.0 Ok'],
  rset: ['250 2.0.0 Ok'],
  noop: ['250 2.0.0 Ok'],
  quit: () => ['221 2.0.0 Bye'],
  needMail: ['503 5.5.1 Error: need MAIL command'],
  badAddress: () => ['501 5.1.3 Bad recipient address syntax'],
  relayDenied: (address) => [`554 5.7.1 <${address}>: Relay access denied`],
  noData: ['554 5.5.1 Error: no valid recipients'],
  unknownCommand: ['502 5.5.2 Error: command not recognized'],
};

export const POSTFIX_RCPT = {
  ok: (): Lines => ['250 2.1.5 Ok'],
  userUnknown: (address: string): Lines => [
    `550 5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`,
  ],
  /** postgrey's default answer through Postfix (as classify-real-servers.test.ts has it). */
  greylisted: (address: string, domain: string): Lines => [
    `450 4.2.0 <${address}>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/${domain}.html`,
  ],
  /** smtpd_hard_error_limit reached: the answer to the next command, then the connection closes. */
  tooManyErrors: (host: string): Lines => [`421 4.7.0 ${host} Error: too many errors`],
};

/** Exim 4.96 (Debian's exim4 daemon, no enhanced status codes by default). */
export const EXIM: HostProfile = {
  provider: null,
  greeting: (host) => [`220 ${host} ESMTP Exim 4.96 Sat, 28 Nov 2026 01:51:06 +0000`],
  ehlo: (host, helo, client) =>
    multiline('250', [
      `${host} Hello ${helo} [${client}]`,
      'SIZE 52428800',
      '8BITMIME',
      'PIPELINING',
      'CHUNKING',
      'PRDR',
      'HELP',
    ]),
  helo: (host, helo, client) => [`250 ${host} Hello ${helo} [${client}]`],
  mailOk: () => ['250 OK'],
  rset: ['250 Reset OK'],
  noop: ['250 OK'],
  quit: (host) => [`221 ${host} closing connection`],
  needMail: ['503 sender not yet given'],
  badAddress: (address) => [`501 <${address}>: missing or malformed local part`],
  relayDenied: () => ['550 relay not permitted'],
  noData: ['503 valid RCPT command must precede DATA'],
  unknownCommand: ['500 unrecognized command'],
};

export const EXIM_RCPT = {
  ok: (): Lines => ['250 Accepted'],
  unrouteable: (): Lines => ['550 Unrouteable address'],
  /** smtp_accept_max_per_host: the greeting of a connection over the limit, then the close. */
  tooManyConnections: [
    '421 Too many concurrent SMTP connections from this IP address; please try again later.',
  ],
  /** smtp_accept_max_per_connection: the answer to MAIL over the limit, then the close. */
  tooManyMessages: ['421 too many messages in this connection'],
};

/** A plain test MTA for the lead's fairness and dead-destination tests (fast.test, slow.test). */
export const PLAIN: HostProfile = {
  ...POSTFIX,
  greeting: (host) => [`220 ${host} ESMTP`],
};
