/** How verdicts look on the page: one status per element, labels and colours for the badge. */
import type { MessageKey } from '../shared/i18n';
import type { MarkStatus } from '../shared/messages';

// The element shows the most important status among its addresses: a bad address first,
// then "still checking", then the weaker verdicts, and deliverable only when all are.
const PRECEDENCE: readonly MarkStatus[] = [
  'invalid',
  'undeliverable',
  'pending',
  'error',
  'risky',
  'unknown',
  'deliverable',
];

export function combineStatuses(statuses: readonly MarkStatus[]): MarkStatus | null {
  let best: MarkStatus | null = null;
  for (const status of statuses) {
    if (best === null || PRECEDENCE.indexOf(status) < PRECEDENCE.indexOf(best)) best = status;
  }
  return best;
}

export interface StatusLook {
  /** The label's message key (text through `t`, lib/shared/i18n.ts). */
  labelKey: MessageKey;
  icon: string;
  color: string;
}

export const STATUS_LOOK: Record<MarkStatus, StatusLook> = {
  pending: { labelKey: 'content_status_pending', icon: '…', color: '#6b7280' },
  deliverable: { labelKey: 'content_status_deliverable', icon: '✓', color: '#15803d' },
  undeliverable: { labelKey: 'content_status_undeliverable', icon: '✕', color: '#b91c1c' },
  risky: { labelKey: 'content_status_risky', icon: '!', color: '#b45309' },
  unknown: { labelKey: 'content_status_unknown', icon: '?', color: '#475569' },
  invalid: { labelKey: 'content_status_invalid', icon: '⊘', color: '#9f1239' },
  error: { labelKey: 'content_status_error', icon: '⚠', color: '#7e22ce' },
};

/** The look of an address nobody has asked the service about yet (over budget, or not seen yet). */
export const UNVERIFIED_LOOK: StatusLook = {
  labelKey: 'content_status_unverified',
  icon: '?',
  color: '#6b7280',
};

/** `rejected_email` → "rejected email". */
export function reasonText(reason: string | null | undefined): string {
  return reason ? reason.replace(/_/g, ' ') : '';
}
