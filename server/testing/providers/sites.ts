/**
 * The provider world's sites — recipient domains, their MX records (hosts in ./hosts.ts),
 * mailboxes and how each provider answers a recipient — with the ground truth of every address
 * the scoring test checks:
 *
 * - `deliverable`: the mailbox exists and the server says so (250, or a 4xx that proves it
 *   exists, such as Gmail's over-quota or receiving-rate answers);
 * - `undeliverable`: the server says it does not exist (550 5.1.1, 5.4.1 edge blocking, …);
 * - `hidden`: the server does not tell (accepts every recipient, or never speaks), so the only
 *   honest verdicts are unknown and risky.
 *
 * Some sites reveal the truth only to a patient client: after a greylisting window, on a fresh
 * connection after a directory-harvest guard or error limit closed one, one connection at a time
 * where a host limits concurrent connections. Their addresses are still `deliverable` or
 * `undeliverable`: `behaviour` says what stands in the way.
 */

import { OUTLOOK_FE } from './hosts';
import {
  EXIM_RCPT,
  GOOGLE_RCPT,
  type Lines,
  MICROSOFT_RCPT,
  MIMECAST_RCPT,
  POSTFIX_RCPT,
  PROOFPOINT_RCPT,
  YAHOO_RCPT,
} from './profiles';

export type MailboxState = 'ok' | 'full' | 'disabled' | 'busy';
export type Truth = 'deliverable' | 'undeliverable' | 'hidden';
/** What a site does besides answering plainly; one `describe` of the scoring test each. */
export type Behaviour =
  | 'plain'
  | 'accept-all'
  | 'equal-preference-mx'
  | 'greylisting'
  | 'connection-limit'
  | 'messages-per-connection'
  | 'recipients-per-connection'
  | 'anti-enumeration'
  | 'error-limit'
  | 'slow-greeting'
  | 'tarpit';

export interface Site {
  domain: string;
  /** Who runs it, for people: `Gmail`, `Microsoft 365 (DBEB)`, `Postfix + postgrey`, … */
  provider: string;
  behaviour: Behaviour;
  mx: { name: string; priority: number }[];
  /** MX host names that serve this domain (every name of `mx`). */
  hosts: string[];
  /** Local parts that exist, and their state. */
  mailboxes: Record<string, MailboxState>;
  /** Every recipient is accepted at RCPT (the truth stays hidden). */
  acceptAll?: boolean;
  /** The answer for a mailbox that does not exist (acceptAll: never asked). */
  unknown(address: string): Lines;
  /** The answer for an existing mailbox in `state`. */
  answer(state: MailboxState, address: string): Lines;
  /** Greylisting policy: the deferral text (the window is the world's). */
  greylist?: (address: string, domain: string) => Lines;
  /** Local parts the scoring test checks at this site. */
  probes: string[];
}

type SiteInit = Omit<Site, 'hosts' | 'answer' | 'unknown'> &
  Partial<Pick<Site, 'answer' | 'unknown'>> & { ok?: (address: string) => Lines };

function site(init: SiteInit): Site {
  const ok = init.ok ?? (() => ['250 2.1.5 Ok']);
  return {
    answer: (_state, address) => ok(address),
    unknown: (address) => [`550 5.1.1 <${address}>: Recipient address rejected: User unknown`],
    ...init,
    hosts: init.mx.map((m) => m.name),
  };
}

const GOOGLE_MX_CONSUMER = [
  { name: 'gmail-smtp-in.l.google.com', priority: 5 },
  { name: 'alt1.gmail-smtp-in.l.google.com', priority: 10 },
  { name: 'alt2.gmail-smtp-in.l.google.com', priority: 20 },
  { name: 'alt3.gmail-smtp-in.l.google.com', priority: 30 },
  { name: 'alt4.gmail-smtp-in.l.google.com', priority: 40 },
];
const GOOGLE_MX_WORKSPACE = [
  { name: 'aspmx.l.google.com', priority: 1 },
  { name: 'alt1.aspmx.l.google.com', priority: 5 },
  { name: 'alt2.aspmx.l.google.com', priority: 5 },
  { name: 'alt3.aspmx.l.google.com', priority: 10 },
  { name: 'alt4.aspmx.l.google.com', priority: 10 },
];
const googleAnswer = (state: MailboxState): Lines =>
  state === 'full'
    ? GOOGLE_RCPT.overQuota()
    : state === 'disabled'
      ? GOOGLE_RCPT.disabled()
      : state === 'busy'
        ? GOOGLE_RCPT.receivingRate()
        : GOOGLE_RCPT.ok();
const YAHOO_MX = ['mta5', 'mta6', 'mta7'].map((h) => ({ name: `${h}.am0.yahoodns.net`, priority: 1 }));
const MIMECAST_MX = [1, 2].map((n) => ({ name: `us-smtp-inbound-${n}.mimecast.com`, priority: 10 }));
const PROOFPOINT_MX = ['a', 'b'].map((x) => ({ name: `mx0${x}-00123456.pphosted.com`, priority: 10 }));
const one = (name: string) => [{ name, priority: 10 }];
/** Eight people of a company site. */
const STAFF = ['alice', 'bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi'];
/** `ghosts` made-up local parts and the people, interleaved (ghost1, ghost2, alice, ghost3, …). */
function mixed(staff: string[], ghosts: number): string[] {
  const out: string[] = [];
  for (let g = 1, p = 0; g <= ghosts || p < staff.length; ) {
    for (let k = 0; k < 2 && g <= ghosts; k++) out.push(`ghost${g++}`);
    if (p < staff.length) out.push(staff[p++] as string);
  }
  return out;
}
const people = (...locals: string[]): Record<string, MailboxState> =>
  Object.fromEntries(locals.map((l) => [l, 'ok' as const]));

export const SITES: Site[] = [
  site({
    domain: 'gmail.com',
    provider: 'Gmail',
    behaviour: 'plain',
    mx: GOOGLE_MX_CONSUMER,
    mailboxes: {
      ...people('alice', 'bob.smith'),
      'carol.full': 'full',
      'dave.gone': 'disabled',
      erin: 'busy',
    },
    answer: googleAnswer,
    unknown: GOOGLE_RCPT.noSuchUser,
    probes: ['alice', 'bob.smith', 'carol.full', 'dave.gone', 'erin', 'nobody.here', 'zz.ghost'],
  }),
  site({
    domain: 'googlemail.com',
    provider: 'Gmail',
    behaviour: 'plain',
    mx: GOOGLE_MX_CONSUMER,
    mailboxes: people('frank'),
    answer: googleAnswer,
    unknown: GOOGLE_RCPT.noSuchUser,
    probes: ['frank', 'ghost'],
  }),
  site({
    domain: 'acme-workspace.test',
    provider: 'Google Workspace',
    behaviour: 'plain',
    mx: GOOGLE_MX_WORKSPACE,
    mailboxes: { ...people('alice', 'sales', 'jo'), 'max.full': 'full' },
    answer: googleAnswer,
    unknown: GOOGLE_RCPT.noSuchUser,
    probes: ['alice', 'sales', 'jo', 'max.full', 'ghost', 'former.employee'],
  }),
  site({
    domain: 'routed-workspace.test',
    provider: 'Google Workspace (catch-all routing)',
    behaviour: 'accept-all',
    mx: GOOGLE_MX_WORKSPACE,
    mailboxes: people('alice'),
    acceptAll: true,
    answer: () => GOOGLE_RCPT.ok(),
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'contoso.test',
    provider: 'Microsoft 365 (directory-based edge blocking)',
    behaviour: 'plain',
    mx: [{ name: 'contoso-test.mail.protection.outlook.com', priority: 0 }],
    mailboxes: people('alice', 'bob', 'it.support'),
    ok: MICROSOFT_RCPT.ok,
    unknown: () => MICROSOFT_RCPT.dbeb('BN8NAM11FT066'),
    probes: ['alice', 'bob', 'it.support', 'ghost', 'left.company'],
  }),
  site({
    domain: 'fabrikam.test',
    provider: 'Microsoft 365 (no edge blocking)',
    behaviour: 'accept-all',
    mx: [{ name: 'fabrikam-test.mail.protection.outlook.com', priority: 0 }],
    mailboxes: people('alice'),
    acceptAll: true,
    ok: MICROSOFT_RCPT.ok,
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'outlook.com',
    provider: 'Outlook.com',
    behaviour: 'recipients-per-connection',
    mx: [{ name: 'outlook-com.olc.protection.outlook.com', priority: 5 }],
    mailboxes: people('alice', 'bob', 'carol', 'dan', 'eve'),
    ok: MICROSOFT_RCPT.ok,
    unknown: () => MICROSOFT_RCPT.outlookNoSuchUser(OUTLOOK_FE),
    probes: ['alice', 'bob', 'carol', 'dan', 'eve', 'ghost1', 'ghost2', 'ghost3'],
  }),
  site({
    domain: 'hotmail.com',
    provider: 'Outlook.com',
    behaviour: 'plain',
    mx: [{ name: 'hotmail-com.olc.protection.outlook.com', priority: 5 }],
    mailboxes: people('alice'),
    ok: MICROSOFT_RCPT.ok,
    unknown: () => MICROSOFT_RCPT.outlookNoSuchUser(OUTLOOK_FE),
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'yahoo.com',
    provider: 'Yahoo',
    behaviour: 'accept-all',
    mx: YAHOO_MX,
    mailboxes: people('alice'),
    acceptAll: true,
    ok: YAHOO_RCPT.ok,
    probes: ['alice', 'ghost', 'zz.nobody'],
  }),
  site({
    domain: 'aol.com',
    provider: 'Yahoo (AOL)',
    behaviour: 'accept-all',
    mx: [{ name: 'mx-aol.mail.gm0.yahoodns.net', priority: 1 }],
    mailboxes: people('alice'),
    acceptAll: true,
    ok: YAHOO_RCPT.ok,
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'globex.test',
    provider: 'Mimecast',
    behaviour: 'equal-preference-mx',
    mx: MIMECAST_MX,
    mailboxes: people('alice', 'bob', 'carol', 'dan'),
    ok: MIMECAST_RCPT.ok,
    unknown: MIMECAST_RCPT.invalidRecipient,
    probes: ['alice', 'bob', 'carol', 'dan', 'ghost1', 'ghost2'],
  }),
  site({
    domain: 'initech.test',
    provider: 'Mimecast (greylisting)',
    behaviour: 'greylisting',
    mx: MIMECAST_MX,
    mailboxes: people('alice', 'bob'),
    ok: MIMECAST_RCPT.ok,
    unknown: MIMECAST_RCPT.invalidRecipient,
    greylist: MIMECAST_RCPT.greylisted,
    probes: ['alice', 'bob', 'ghost'],
  }),
  site({
    domain: 'umbrella.test',
    provider: 'Proofpoint (directory-harvest guard)',
    behaviour: 'anti-enumeration',
    mx: PROOFPOINT_MX,
    mailboxes: people(...STAFF),
    ok: PROOFPOINT_RCPT.ok,
    unknown: PROOFPOINT_RCPT.userUnknown,
    // More rows than a host has connection slots, two ghosts to each person: connections are shared.
    probes: mixed(STAFF, 16),
  }),
  site({
    domain: 'postfix-site.test',
    provider: 'Postfix',
    behaviour: 'plain',
    mx: one('mx.postfix-site.test'),
    mailboxes: people('alice', 'bob'),
    ok: POSTFIX_RCPT.ok,
    unknown: POSTFIX_RCPT.userUnknown,
    probes: ['alice', 'bob', 'ghost'],
  }),
  site({
    domain: 'postgrey-site.test',
    provider: 'Postfix + postgrey',
    behaviour: 'greylisting',
    mx: one('mail.postgrey-site.test'),
    mailboxes: people('alice', 'bob', 'carol'),
    ok: POSTFIX_RCPT.ok,
    unknown: POSTFIX_RCPT.userUnknown,
    greylist: POSTFIX_RCPT.greylisted,
    probes: ['alice', 'bob', 'carol', 'ghost1', 'ghost2'],
  }),
  site({
    domain: 'strict-postfix.test',
    provider: 'Postfix (smtpd_hard_error_limit = 3)',
    behaviour: 'error-limit',
    mx: one('mx.strict-postfix.test'),
    mailboxes: people(...STAFF.slice(0, 6)),
    ok: POSTFIX_RCPT.ok,
    unknown: POSTFIX_RCPT.userUnknown,
    probes: mixed(STAFF.slice(0, 6), 12),
  }),
  site({
    domain: 'postscreen-site.test',
    provider: 'Postfix postscreen (greet wait)',
    behaviour: 'slow-greeting',
    mx: one('mx.postscreen-site.test'),
    mailboxes: people('alice'),
    ok: POSTFIX_RCPT.ok,
    unknown: POSTFIX_RCPT.userUnknown,
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'exim-site.test',
    provider: 'Exim (smtp_accept_max_per_host)',
    behaviour: 'connection-limit',
    mx: one('mx.exim-site.test'),
    mailboxes: people('alice', 'bob', 'carol', 'dan', 'erin'),
    ok: EXIM_RCPT.ok,
    unknown: EXIM_RCPT.unrouteable,
    probes: ['alice', 'bob', 'carol', 'dan', 'erin', 'ghost1', 'ghost2', 'ghost3'],
  }),
  site({
    domain: 'slow-banner.test',
    provider: 'Exim (connect ACL delay)',
    behaviour: 'slow-greeting',
    mx: one('mx.slow-banner.test'),
    mailboxes: people('alice'),
    ok: EXIM_RCPT.ok,
    unknown: EXIM_RCPT.unrouteable,
    probes: ['alice', 'ghost'],
  }),
  site({
    domain: 'tarpit.test',
    provider: 'Tarpit (MX hosts accept TCP, never speak)',
    behaviour: 'tarpit',
    mx: [
      { name: 'mx1.tarpit.test', priority: 10 },
      { name: 'mx2.tarpit.test', priority: 20 },
    ],
    mailboxes: {},
    probes: ['alice'],
  }),
  // Not scored (see world.ts): the scheduler tests' fast and slow destinations.
  site({
    domain: 'fast.test',
    provider: 'Test MTA (fast)',
    behaviour: 'plain',
    mx: one('mx.fast.test'),
    mailboxes: {},
    probes: [],
  }),
  site({
    domain: 'slow.test',
    provider: 'Test MTA (slow RCPT)',
    behaviour: 'plain',
    mx: one('mx.slow.test'),
    mailboxes: {},
    probes: [],
  }),
];

/** The fast and slow test hosts accept `ok…` local parts (and a few names), refuse the rest. */
export const TEST_MTA_DOMAINS = new Set(['fast.test', 'slow.test']);
export const WILDCARD_SUFFIXES = { silent: 'evil.test', limited: 'limited-evil.test' } as const;

/** The mailbox state of `local` at `site`, null when there is none. */
export function mailboxOf(site: Site, local: string): MailboxState | null {
  if (site.acceptAll) return site.mailboxes[local] ?? 'ok';
  if (TEST_MTA_DOMAINS.has(site.domain) || site.domain.endsWith(`.${WILDCARD_SUFFIXES.limited}`))
    return /^(ok|alice|bob)/.test(local) ? 'ok' : null;
  return site.mailboxes[local] ?? null;
}

/** The ground truth of an address at `site`. */
export function truthOf(site: Site, local: string): Truth {
  if (site.acceptAll || site.behaviour === 'tarpit') return 'hidden';
  const state = mailboxOf(site, local);
  return state === null || state === 'disabled' ? 'undeliverable' : 'deliverable';
}
