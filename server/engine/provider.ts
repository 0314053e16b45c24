/**
 * Mail providers recognised by MX host name (docs/design.md §3, "Classification, as real mail
 * servers answer"), and what their RCPT answers are worth:
 * - consumer Gmail and Outlook.com/Hotmail refuse unknown mailboxes reliably, so the catch-all
 *   probe is skipped (it costs a RCPT and proves nothing);
 * - Yahoo/AOL consumer mail accepts every address at RCPT, so a 250 proves nothing there;
 * - Microsoft 365 tenants (`*.mail.protection.outlook.com`) and Google Workspace are probed
 *   normally: a tenant may accept everything, which the probe catches.
 */
type ProviderName =
  | 'google'
  | 'microsoft'
  | 'yahoo'
  | 'apple'
  | 'zoho'
  | 'fastmail'
  | 'proton'
  | 'yandex'
  | 'proofpoint'
  | 'mimecast'
  | 'barracuda'
  | 'cisco';

export interface Provider {
  name: ProviderName;
  /** The catch-all probe is pointless: unknown mailboxes are refused reliably. */
  skipCatchAllProbe: boolean;
  /** Every address is accepted at RCPT: a 250 proves nothing. */
  acceptsAll: boolean;
}

interface Rule {
  name: ProviderName;
  /** Host name suffixes (a leading dot: any sub-domain) or exact names. */
  hosts: string[];
  skipCatchAllProbe?: boolean;
  acceptsAll?: boolean;
}

/** First match wins, so the consumer rules come before their provider's general rule. */
const RULES: Rule[] = [
  {
    name: 'google',
    hosts: ['gmail-smtp-in.l.google.com', '.gmail-smtp-in.l.google.com'],
    skipCatchAllProbe: true,
  },
  { name: 'google', hosts: ['.google.com', '.googlemail.com'] },
  { name: 'microsoft', hosts: ['.olc.protection.outlook.com', '.hotmail.com'], skipCatchAllProbe: true },
  { name: 'microsoft', hosts: ['.protection.outlook.com', '.outlook.com', '.office365.us'] },
  { name: 'yahoo', hosts: ['.yahoodns.net', '.yahoo.com', '.aol.com'], acceptsAll: true },
  { name: 'apple', hosts: ['.mail.icloud.com', '.me.com'] },
  { name: 'zoho', hosts: ['.zoho.com', '.zoho.eu', '.zoho.in', '.zohomail.com'] },
  { name: 'fastmail', hosts: ['.messagingengine.com'] },
  { name: 'proton', hosts: ['.protonmail.ch', '.proton.me'] },
  { name: 'yandex', hosts: ['.yandex.net', '.yandex.ru'] },
  { name: 'proofpoint', hosts: ['.pphosted.com', '.ppe-hosted.com', '.proofpoint.com'] },
  { name: 'mimecast', hosts: ['.mimecast.com', '.mimecast.co.za', '.mimecast-offshore.com'] },
  { name: 'barracuda', hosts: ['.barracudanetworks.com'] },
  { name: 'cisco', hosts: ['.iphmx.com'] },
];

const matches = (host: string, pattern: string): boolean =>
  pattern.startsWith('.') ? host.endsWith(pattern) : host === pattern;

/** The provider behind an MX host name (lowercased, no trailing dot), or null. */
export function providerOf(mxHost: string | null | undefined): Provider | null {
  if (!mxHost) return null;
  const host = mxHost.toLowerCase().replace(/\.$/, '');
  const rule = RULES.find((r) => r.hosts.some((pattern) => matches(host, pattern)));
  if (!rule) return null;
  return {
    name: rule.name,
    skipCatchAllProbe: rule.skipCatchAllProbe ?? false,
    acceptsAll: rule.acceptsAll ?? false,
  };
}
