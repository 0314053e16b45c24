/**
 * The provider world's MX hosts: each on its own 127.0.0.x address (127.0.0.100 and up), with
 * its provider's profile (./profiles.ts) and connection-level behaviour (./smtp-host.ts) — the
 * providers' real MX host names, so the engine recognises the provider as it would on the
 * internet. Which domains each host serves is in ./sites.ts.
 */
import {
  EXIM,
  EXIM_RCPT,
  GOOGLE,
  type HostProfile,
  MICROSOFT_RCPT,
  MIMECAST,
  microsoft,
  PLAIN,
  POSTFIX,
  POSTFIX_RCPT,
  PROOFPOINT,
  PROOFPOINT_RCPT,
  yahoo,
} from './profiles';
import type { HostBehaviour, HostSpec } from './smtp-host';

/** Connection limits and delays the world starts with; the world's options adjust some. */
export interface CatalogueOptions {
  /** Exim's smtp_accept_max_per_host at mx.exim-site.test (default 2). */
  eximConnectionsPerClient: number;
  /** How long mx.exim-site.test takes to answer RCPT (ms). */
  eximRcptDelayMs: number;
  /** Postscreen's greet wait at mx.postscreen-site.test (ms). */
  pregreetWaitMs: number;
  /** The Exim connect-ACL delay at mx.slow-banner.test (ms). */
  greetingDelayMs: number;
  /** How long slow.test's host takes to answer RCPT (ms). */
  slowRcptMs: number;
  /** Concurrent connections the limited wildcard host accepts per client. */
  limitedConnections: number;
}

/** The Exchange Online front end Outlook.com's replies name. */
export const OUTLOOK_FE = 'DB5EUR03FT012';

interface HostEntry {
  name: string;
  profile: HostProfile;
  behaviour?: HostBehaviour;
}

function hostEntries(o: CatalogueOptions): HostEntry[] {
  const google = (name: string): HostEntry => ({ name, profile: GOOGLE });
  return [
    // Gmail (consumer): the five MX hosts of gmail.com.
    google('gmail-smtp-in.l.google.com'),
    google('alt1.gmail-smtp-in.l.google.com'),
    google('alt2.gmail-smtp-in.l.google.com'),
    google('alt3.gmail-smtp-in.l.google.com'),
    google('alt4.gmail-smtp-in.l.google.com'),
    // Google Workspace: the classic five-record set (two pairs of equal preference).
    google('aspmx.l.google.com'),
    google('alt1.aspmx.l.google.com'),
    google('alt2.aspmx.l.google.com'),
    google('alt3.aspmx.l.google.com'),
    google('alt4.aspmx.l.google.com'),
    // Microsoft 365 tenants: one host name per tenant.
    { name: 'contoso-test.mail.protection.outlook.com', profile: microsoft('BN8NAM11FT066') },
    { name: 'fabrikam-test.mail.protection.outlook.com', profile: microsoft('BN8NAM11FT067') },
    // Outlook.com / Hotmail: a cap of recipients per connection.
    {
      name: 'outlook-com.olc.protection.outlook.com',
      profile: microsoft(OUTLOOK_FE),
      behaviour: {
        recipientsPerConnection: { limit: 3, reply: MICROSOFT_RCPT.tooManyRecipients(OUTLOOK_FE) },
      },
    },
    { name: 'hotmail-com.olc.protection.outlook.com', profile: microsoft(OUTLOOK_FE) },
    // Yahoo: three MX hosts of equal preference; AOL on Yahoo's hosts.
    { name: 'mta5.am0.yahoodns.net', profile: yahoo('mtaproxy501.free.mail.ne1') },
    { name: 'mta6.am0.yahoodns.net', profile: yahoo('mtaproxy602.free.mail.ne1') },
    { name: 'mta7.am0.yahoodns.net', profile: yahoo('mtaproxy703.free.mail.ne1') },
    { name: 'mx-aol.mail.gm0.yahoodns.net', profile: yahoo('mtaproxy104.aol.mail.gq1') },
    // Mimecast: two inbound gateways of equal preference, shared by its customers.
    { name: 'us-smtp-inbound-1.mimecast.com', profile: MIMECAST },
    { name: 'us-smtp-inbound-2.mimecast.com', profile: MIMECAST },
    // Proofpoint: mx0a/mx0b of equal preference, with a directory-harvest guard.
    ...['mx0a-00123456.pphosted.com', 'mx0b-00123456.pphosted.com'].map(
      (name): HostEntry => ({
        name,
        profile: PROOFPOINT,
        behaviour: { harvestGuard: { limit: 2, reply: PROOFPOINT_RCPT.harvest, drop: true } },
      }),
    ),
    // Postfix: plain; with postgrey; with a low smtpd_hard_error_limit; behind postscreen.
    { name: 'mx.postfix-site.test', profile: POSTFIX },
    { name: 'mail.postgrey-site.test', profile: POSTFIX },
    {
      name: 'mx.strict-postfix.test',
      profile: POSTFIX,
      behaviour: { errorLimit: { limit: 3, reply: POSTFIX_RCPT.tooManyErrors } },
    },
    { name: 'mx.postscreen-site.test', profile: POSTFIX, behaviour: { pregreetWaitMs: o.pregreetWaitMs } },
    // Exim: smtp_accept_max_per_host and smtp_accept_max_per_connection; a slow banner.
    {
      name: 'mx.exim-site.test',
      profile: EXIM,
      behaviour: {
        connectionsPerClient: { limit: o.eximConnectionsPerClient, reply: EXIM_RCPT.tooManyConnections },
        messagesPerConnection: { limit: 4, reply: EXIM_RCPT.tooManyMessages },
        // Recipient verification takes a while (callouts, DNSBL lookups): connections are held.
        rcptDelayMs: o.eximRcptDelayMs,
      },
    },
    { name: 'mx.slow-banner.test', profile: EXIM, behaviour: { greetingDelayMs: o.greetingDelayMs } },
    // For the scheduler's integration tests: tarpits, a fast and a slow host, wildcard targets.
    { name: 'mx1.tarpit.test', profile: PLAIN, behaviour: { silent: true } },
    { name: 'mx2.tarpit.test', profile: PLAIN, behaviour: { silent: true } },
    { name: 'mx.fast.test', profile: PLAIN },
    { name: 'mx.slow.test', profile: PLAIN, behaviour: { rcptDelayMs: o.slowRcptMs } },
    { name: 'silent.evil.test', profile: PLAIN, behaviour: { silent: true } },
    {
      name: 'limited.evil.test',
      profile: EXIM,
      behaviour: {
        connectionsPerClient: { limit: o.limitedConnections, reply: EXIM_RCPT.tooManyConnections },
        rcptDelayMs: o.slowRcptMs,
      },
    },
  ];
}

/** The world's hosts: 127.0.0.100, .101, … (clear of the addresses other tests use, 127.0.0.1–59). */
const IP_BASE = '127.0.0.';
const IP_FIRST = 100;

export function catalogueHosts(o: CatalogueOptions): HostSpec[] {
  return hostEntries(o).map((entry, i) => ({ ...entry, ip: `${IP_BASE}${IP_FIRST + i}` }));
}
