/** The badge's popover: verdict, reason per address, a did-you-mean, and "Verify" while unverified. */
import { t } from '../../shared/i18n';
import type { MarkStatus } from '../../shared/messages';
import { reasonText, STATUS_LOOK } from '../status';
import { isUserEvent } from '../user-event';
import { h } from './dom';

export interface AddressLine {
  email: string;
  status: MarkStatus;
  unverified: boolean;
  reason: string | null;
  suggestion: string | null;
  error: string | null;
  cached: boolean;
}

export interface PopoverView {
  label: string;
  unverified: boolean;
  lines: AddressLine[];
  onVerify(): void;
  close(): void;
}

function lineText(line: AddressLine): string {
  if (line.unverified && line.status !== 'error') return t('content_not_verified_yet');
  const parts = [t(STATUS_LOOK[line.status].labelKey)];
  const reason = reasonText(line.reason);
  if (reason) parts.push(reason);
  if (line.error) parts.push(line.error);
  if (line.cached) parts.push(t('content_from_cache'));
  return parts.join(' · ');
}

export function renderPopover(doc: Document, view: PopoverView): HTMLElement {
  const box = h(doc, 'div', {
    all: 'initial',
    position: 'absolute',
    left: '0',
    top: '20px',
    'min-width': '220px',
    'max-width': '360px',
    padding: '8px 10px',
    background: '#fff',
    color: '#111827',
    border: '1px solid #d1d5db',
    'border-radius': '6px',
    'box-shadow': '0 4px 12px rgba(0,0,0,.15)',
    font: '12px/1.4 system-ui, sans-serif',
    display: 'block',
  });
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', t('content_popover_label'));
  box.append(h(doc, 'div', { 'font-weight': '600', display: 'block' }, view.label));
  for (const line of view.lines) {
    const row = h(doc, 'div', { display: 'block', 'margin-top': '4px', 'word-break': 'break-all' });
    row.append(h(doc, 'span', { 'font-family': 'ui-monospace, monospace' }, line.email));
    row.append(h(doc, 'span', { color: '#4b5563' }, ` — ${lineText(line)}`));
    if (line.suggestion)
      row.append(h(doc, 'div', { display: 'block' }, t('bg_did_you_mean', line.suggestion)));
    box.append(row);
  }
  const actions = h(doc, 'div', { display: 'block', 'margin-top': '8px' });
  if (view.unverified) {
    const verify = h(doc, 'button', { cursor: 'pointer', 'margin-right': '6px' }, t('content_verify'));
    verify.type = 'button';
    // Paid work: only the user's own click (a page script cannot reach it; this is a second lock).
    verify.addEventListener('click', (event) => {
      if (isUserEvent(event)) view.onVerify();
    });
    actions.append(verify);
  }
  const close = h(doc, 'button', { cursor: 'pointer' }, t('content_close'));
  close.type = 'button';
  close.addEventListener('click', () => view.close());
  actions.append(close);
  box.append(actions);
  return box;
}
