/**
 * What the popover says: the verdict in the popup's words, per address its reason, a did-you-mean
 * with "Replace" (and "Undo") where the page lets us change the address, "Verify" while an
 * address is not verified. Built with DOM APIs only; page data is always text.
 */
import { h, type Style } from '@/lib/content/badge/dom';
import { glyphImage } from '@/lib/content/badge/sheet';
import type { PageStatus } from '@/lib/content/badge/status';
import { reasonSentence, statusWord, t } from '@/lib/content/badge/words';
import { isUserEvent } from '@/lib/content/marking/user-event';

export interface PopoverLine {
  email: string;
  status: PageStatus;
  reason: string | null;
  suggestion: string | null;
  error: string | null;
  cached: boolean;
  /** The address can be replaced by its suggestion (a field, a compose recipient field). */
  canReplace: boolean;
  /** Set after a replacement: the address now written in its place (offers Undo). */
  replacedBy: string | null;
}

export interface PopoverView {
  /** The dialog's accessible name. */
  label: string;
  status: PageStatus;
  lines: PopoverLine[];
  onVerify(): void;
  onReplace(line: PopoverLine): void;
  onUndo(line: PopoverLine): void;
  onClose(): void;
}

export interface Palette {
  bg: string;
  fg: string;
  muted: string;
  border: string;
  accent: string;
  accentFg: string;
}

export const LIGHT: Palette = {
  bg: '#ffffff',
  fg: '#111827',
  muted: '#4b5563',
  border: '#d1d5db',
  accent: '#1d4ed8',
  accentFg: '#ffffff',
};
export const DARK: Palette = {
  bg: '#1f2937',
  fg: '#f3f4f6',
  muted: '#cbd5e1',
  border: '#4b5563',
  accent: '#93c5fd',
  accentFg: '#0b1220',
};

const TEXT: Style = { all: 'initial', display: 'block', font: 'inherit', color: 'inherit' };

function sentence(line: PopoverLine): string {
  if (line.status === 'unverified') return t('content_unverified_reason');
  if (line.status === 'pending') return t('content_pending_reason');
  if (line.status === 'error') return line.error ?? t('popup_status_error');
  return reasonSentence(line.reason) ?? statusWord(line.status);
}

function button(doc: Document, p: Palette, label: string, primary: boolean, run: () => void): HTMLElement {
  const el = h(
    doc,
    'button',
    {
      all: 'initial',
      display: 'inline-block',
      font: '600 12px/1 system-ui, sans-serif',
      padding: '6px 10px',
      'border-radius': '6px',
      cursor: 'pointer',
      border: `1px solid ${primary ? p.accent : p.border}`,
      background: primary ? p.accent : 'transparent',
      color: primary ? p.accentFg : p.fg,
      'margin-inline-end': '6px',
      'white-space': 'nowrap',
    },
    label,
  );
  el.setAttribute('type', 'button');
  el.addEventListener('focus', () => el.style.setProperty('outline', `2px solid ${p.accent}`, 'important'));
  el.addEventListener('blur', () => el.style.setProperty('outline', 'none', 'important'));
  // A page cannot press our buttons: only a person's click or key counts.
  el.addEventListener('click', (event) => {
    event.preventDefault();
    if (isUserEvent(event)) run();
  });
  return el;
}

/** The status's glyph, the badge's own picture (badge/sheet.ts). */
function glyph(doc: Document, status: PageStatus): HTMLElement {
  return h(doc, 'span', {
    all: 'initial',
    display: 'inline-block',
    width: '12px',
    height: '12px',
    'margin-inline-end': '6px',
    'vertical-align': '-1px',
    'background-image': glyphImage(status),
    'background-size': '100% 100%',
  });
}

function lineBlock(doc: Document, p: Palette, view: PopoverView, line: PopoverLine): HTMLElement {
  const block = h(doc, 'div', { ...TEXT, 'margin-top': '8px' });
  block.append(
    h(
      doc,
      'div',
      {
        ...TEXT,
        'font-family': 'ui-monospace, SFMono-Regular, Menlo, monospace',
        'overflow-wrap': 'anywhere',
      },
      line.email,
    ),
  );
  if (view.lines.length > 1) {
    const verdict = h(doc, 'div', { ...TEXT, 'font-weight': '600', 'margin-top': '2px' });
    verdict.append(glyph(doc, line.status), doc.createTextNode(statusWord(line.status)));
    block.append(verdict);
  }
  block.append(h(doc, 'div', { ...TEXT, color: p.muted, 'margin-top': '2px' }, sentence(line)));
  if (line.cached) block.append(h(doc, 'div', { ...TEXT, color: p.muted }, t('content_cached')));
  if (line.replacedBy) {
    const row = h(doc, 'div', { ...TEXT, 'margin-top': '6px' });
    row.append(h(doc, 'span', { ...TEXT, display: 'inline' }, `${t('content_replaced', line.replacedBy)} `));
    row.append(button(doc, p, t('content_undo'), false, () => view.onUndo(line)));
    block.append(row);
  } else if (line.suggestion) {
    const row = h(doc, 'div', { ...TEXT, 'margin-top': '6px' });
    row.append(
      h(doc, 'div', { ...TEXT, 'overflow-wrap': 'anywhere' }, t('content_suggestion', line.suggestion)),
    );
    if (line.canReplace) {
      const actions = h(doc, 'div', { ...TEXT, 'margin-top': '4px' });
      actions.append(button(doc, p, t('content_replace'), true, () => view.onReplace(line)));
      row.append(actions);
    }
    block.append(row);
  }
  return block;
}

/** The popover's content (the panel itself is positioned by the overlay). */
export function renderPopover(doc: Document, p: Palette, view: PopoverView): HTMLElement {
  const body = h(doc, 'div', { ...TEXT });
  const title = h(doc, 'div', { ...TEXT, 'font-weight': '700', 'font-size': '13px' });
  title.append(glyph(doc, view.status), doc.createTextNode(statusWord(view.status)));
  body.append(title);
  for (const line of view.lines) body.append(lineBlock(doc, p, view, line));
  const actions = h(doc, 'div', { ...TEXT, 'margin-top': '10px' });
  if (view.lines.some((l) => l.status === 'unverified' || l.status === 'error')) {
    actions.append(button(doc, p, t('content_verify'), true, view.onVerify));
  }
  actions.append(button(doc, p, t('content_close'), false, view.onClose));
  body.append(actions);
  return body;
}
