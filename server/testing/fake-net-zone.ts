/**
 * The fake network's test domains and their DNS records. Every verdict and reason of
 * docs/design.md §3 has a domain here; fake-net-smtp.ts decides how the SMTP server answers
 * recipients of each domain.
 */

/** Loopback addresses: the SMTP server, nothing (connection refused), a silent tarpit. */
export const SMTP_IP = '127.0.0.1';
export const DEAD_IP = '127.0.0.2';
export const TARPIT_IP = '127.0.0.3';

export const FAKE_DOMAINS = {
  /** Accepts the mailboxes of KNOWN_MAILBOXES, rejects every other one with 550 5.1.1. */
  deliverable: 'deliverable.test',
  /** Accepts every recipient. */
  catchAll: 'catch-all.test',
  /** Rejects every recipient with 550 5.1.1. */
  rejecting: 'rejecting.test',
  /** Rejects every recipient with 550 5.7.1 (policy, not the address): blocked. */
  policy: 'policy.test',
  /** 552 5.2.2 mailbox full. */
  mailboxFull: 'full.test',
  /** 452 4.2.2 mailbox full. */
  mailboxFull452: 'full452.test',
  /** 451 4.7.1 on every RCPT: greylisting that never lets go. */
  greylisted: 'greylist.test',
  /** 451 on the first RCPT of each address, 250 afterwards. */
  greylistOnce: 'greylist-once.test',
  /** RCPT answered only after FakeNetOptions.slowMs. */
  slow: 'slow.test',
  /** Same as slow, on another MX host (for per-host vs global concurrency). */
  slowB: 'slow-b.test',
  /** MX accepts TCP connections but never sends a greeting. */
  tarpit: 'tarpit.test',
  /** MX on 127.0.0.2 where nothing listens. */
  unreachable: 'unreachable.test',
  /** MX 10 on 127.0.0.2 (refused), MX 20 on the SMTP server (deliverable behaviour). */
  nextMx: 'next-mx.test',
  /** No MX, an A record on the SMTP server (deliverable behaviour). */
  aFallback: 'a-only.test',
  /** Exists (TXT record) but has neither MX nor A. */
  noMail: 'no-mail.test',
  /** Null MX (RFC 7505): MX 0 ".". */
  nullMx: 'null-mx.test',
  /** NXDOMAIN. */
  nonexistent: 'nonexistent.test',
  /** SERVFAIL for every query. */
  servfail: 'servfail.test',
  /** The DNS server never answers. */
  dnsSilent: 'dns-silent.test',
  /** In disposable-email-domains-js's list; MX on the SMTP server (catch-all behaviour). */
  disposable: 'mailinator.com',
  /** In email-providers' list; MX on the SMTP server (deliverable behaviour). */
  freeProvider: 'gmail.com',
  /** IDN domain `bücher.test` (deliverable behaviour), served under its punycode name. */
  unicode: 'bücher.test',
  unicodeAscii: 'xn--bcher-kva.test',
  /** Answers RCPT with "554 Transaction failed" (neither about the mailbox nor about us): smtp_error. */
  oddReply: 'odd-reply.test',
  /** MX named like Yahoo's consumer mail (`*.yahoodns.net`), accepts everything: accept_all_provider. */
  yahooHosted: 'yahoo-hosted.test',
  /** MX named like consumer Gmail (`gmail-smtp-in.l.google.com`), accepts everything: no catch-all probe. */
  gmailHosted: 'gmail-hosted.test',
  /** MX named like a Microsoft 365 tenant (`*.mail.protection.outlook.com`), accepts everything: probed. */
  m365Tenant: 'm365-tenant.test',
  /** Its MX host's name starts with `=` (a formula, should a results CSV carry it verbatim). */
  formulaMx: 'formula-mx.test',
} as const;

/** Local parts the "deliverable" behaviour accepts. */
export const KNOWN_MAILBOXES = ['alice', 'bob', 'info', 'postmaster', 'support'] as const;

interface MxRecord {
  priority: number;
  exchange: string;
}

export interface ZoneEntry {
  mx?: MxRecord[];
  a?: string[];
  txt?: string[];
  rcode?: 'servfail' | 'silent';
}

const D = FAKE_DOMAINS;
const mxTo = (host: string): MxRecord[] => [{ priority: 10, exchange: host }];

/** Lowercased owner name → records. Names absent here get NXDOMAIN. */
export const ZONE: Record<string, ZoneEntry> = {
  [D.deliverable]: { mx: mxTo(`mx.${D.deliverable}`) },
  [`mx.${D.deliverable}`]: { a: [SMTP_IP] },
  [D.catchAll]: { mx: mxTo(`mx.${D.catchAll}`) },
  [`mx.${D.catchAll}`]: { a: [SMTP_IP] },
  [D.rejecting]: { mx: mxTo(`mx.${D.rejecting}`) },
  [`mx.${D.rejecting}`]: { a: [SMTP_IP] },
  [D.policy]: { mx: mxTo(`mx.${D.policy}`) },
  [`mx.${D.policy}`]: { a: [SMTP_IP] },
  [D.mailboxFull]: { mx: mxTo(`mx.${D.mailboxFull}`) },
  [`mx.${D.mailboxFull}`]: { a: [SMTP_IP] },
  [D.mailboxFull452]: { mx: mxTo(`mx.${D.mailboxFull452}`) },
  [`mx.${D.mailboxFull452}`]: { a: [SMTP_IP] },
  [D.greylisted]: { mx: mxTo(`mx.${D.greylisted}`) },
  [`mx.${D.greylisted}`]: { a: [SMTP_IP] },
  [D.greylistOnce]: { mx: mxTo(`mx.${D.greylistOnce}`) },
  [`mx.${D.greylistOnce}`]: { a: [SMTP_IP] },
  [D.slow]: { mx: mxTo(`mx.${D.slow}`) },
  [`mx.${D.slow}`]: { a: [SMTP_IP] },
  [D.slowB]: { mx: mxTo(`mx.${D.slowB}`) },
  [`mx.${D.slowB}`]: { a: [SMTP_IP] },
  [D.tarpit]: { mx: mxTo(`mx.${D.tarpit}`) },
  [`mx.${D.tarpit}`]: { a: [TARPIT_IP] },
  [D.unreachable]: { mx: mxTo(`mx.${D.unreachable}`) },
  [`mx.${D.unreachable}`]: { a: [DEAD_IP] },
  [D.nextMx]: {
    mx: [
      // Listed out of order on purpose: the engine must sort by priority.
      { priority: 20, exchange: `mx2.${D.nextMx}` },
      { priority: 10, exchange: `mx1.${D.nextMx}` },
    ],
  },
  [`mx1.${D.nextMx}`]: { a: [DEAD_IP] },
  [`mx2.${D.nextMx}`]: { a: [SMTP_IP] },
  [D.aFallback]: { a: [SMTP_IP] },
  [D.noMail]: { txt: ['v=spf1 -all'] },
  [D.nullMx]: { mx: [{ priority: 0, exchange: '' }] },
  [D.servfail]: { rcode: 'servfail' },
  [D.dnsSilent]: { rcode: 'silent' },
  [D.disposable]: { mx: mxTo(`mx.${D.disposable}`) },
  [`mx.${D.disposable}`]: { a: [SMTP_IP] },
  [D.freeProvider]: { mx: mxTo(`mx.${D.freeProvider}`) },
  [`mx.${D.freeProvider}`]: { a: [SMTP_IP] },
  [D.unicodeAscii]: { mx: mxTo(`mx.${D.unicodeAscii}`) },
  [D.oddReply]: { mx: mxTo(`mx.${D.oddReply}`) },
  [`mx.${D.oddReply}`]: { a: [SMTP_IP] },
  [D.yahooHosted]: { mx: mxTo('mta5.am0.yahoodns.net') },
  'mta5.am0.yahoodns.net': { a: [SMTP_IP] },
  [D.gmailHosted]: { mx: mxTo('gmail-smtp-in.l.google.com') },
  'gmail-smtp-in.l.google.com': { a: [SMTP_IP] },
  [D.m365Tenant]: { mx: mxTo('m365-tenant-test.mail.protection.outlook.com') },
  'm365-tenant-test.mail.protection.outlook.com': { a: [SMTP_IP] },
  [`mx.${D.unicodeAscii}`]: { a: [SMTP_IP] },
  [D.formulaMx]: { mx: mxTo(`=mx.${D.formulaMx}`) },
  [`=mx.${D.formulaMx}`]: { a: [SMTP_IP] },
};
