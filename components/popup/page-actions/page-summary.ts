/** What the page actions show: counts by status in words, the cost of "Verify all", and the CSV and its name. */
import { type CountKey, t, tn } from '@/lib/shared/i18n';
import type { PageAddress, PageStatus } from '@/lib/shared/views';

/** Order of the counts in the summary: verdicts first, then what still needs the user. */
const ORDER: readonly PageStatus[] = [
  'deliverable',
  'undeliverable',
  'risky',
  'unknown',
  'invalid',
  'error',
  'pending',
  'unverified',
];

const COUNT_KEY: Record<PageStatus, CountKey> = {
  deliverable: 'popup_page_n_deliverable',
  undeliverable: 'popup_page_n_undeliverable',
  risky: 'popup_page_n_risky',
  unknown: 'popup_page_n_unknown',
  invalid: 'popup_page_n_invalid',
  error: 'popup_page_n_error',
  pending: 'popup_page_n_pending',
  unverified: 'popup_page_n_unverified',
};

function countByStatus(addresses: readonly PageAddress[]): Map<PageStatus, number> {
  const counts = new Map<PageStatus, number>();
  for (const { status } of addresses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts;
}

/** "This page: 12 addresses — 8 deliverable, 1 undeliverable, 3 not verified yet". */
export function summaryText(addresses: readonly PageAddress[]): string {
  const counts = countByStatus(addresses);
  const parts = ORDER.filter((s) => counts.has(s)).map((s) => tn(COUNT_KEY[s], counts.get(s) ?? 0));
  return tn('popup_page_summary', addresses.length, parts.join(', '));
}

/** The addresses "Verify all" asks the service about: one credit each. */
export function addressesToVerify(addresses: readonly PageAddress[]): string[] {
  return addresses.filter((a) => a.status === 'unverified' || a.status === 'error').map((a) => a.email);
}

/** How many credits "Verify all" costs. */
export function toVerify(addresses: readonly PageAddress[]): number {
  return addressesToVerify(addresses).length;
}

export function verifyAllLabel(credits: number): string {
  if (credits === 0) return t('popup_page_verify_none');
  return tn('popup_page_verify_all', credits);
}

/** A CSV cell: quoted when needed, and a leading =, +, - or @ defused (spreadsheets run formulas). */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The export's file name, in the person's language ("page-addresses.csv", "adresses-de-la-page.csv"). */
export function pageCsvName(): string {
  return `${t('file_page_addresses')}.csv`;
}

/** The page's addresses with their verdicts: `email,status,reason`, CRLF lines. */
export function pageCsv(addresses: readonly PageAddress[]): string {
  const lines = ['email,status,reason'];
  for (const a of addresses) lines.push([a.email, a.status, a.reason ?? ''].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
