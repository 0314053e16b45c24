/**
 * The send guard's dialog (docs/design.md §5): one overlay host with a closed shadow root, built
 * with DOM calls only (Gmail enforces Trusted Types; page data is text). `role="alertdialog"`,
 * `aria-modal`, labelled by its title and described by its sentence; it takes focus, Tab stays
 * inside, Escape means "Edit recipients". Its buttons answer only the user's own input.
 * Two states: "Checking recipients…" while verdicts are coming, then the warning.
 */

import { h, isolateEvents, setStyle } from '@/lib/content/badge/dom';
import { reasonSentence, statusWord } from '@/lib/content/badge/words';
import { isUserEvent } from '@/lib/content/marking/user-event';
import type { Flagged } from '@/lib/content/send-guard/decide';
import { t, tn, uiLanguage } from '@/lib/shared/i18n';
import { focusRing, looks, paletteFor } from './dialog-look';

export const DIALOG_TAG = 'verimark-send-guard';

type Choice = 'send' | 'edit';

export interface GuardDialog {
  /** Shows the warning for these recipients; `replace` swaps one for its suggestion. */
  warn(flagged: readonly Flagged[], replace: (f: Flagged) => boolean): void;
  /** Resolves with the user's choice (or 'edit' once every flagged recipient was replaced). */
  readonly choice: Promise<Choice>;
  /** False once the dialog is gone from the page (closed, or removed by the page). */
  isOpen(): boolean;
  /** Ends the dialog as "Edit recipients" (e.g. the page removed it). */
  cancel(): void;
  close(): void;
}

/** Each dialog's closed root, for the extension's own unit tests (never the page). */
const roots = new WeakMap<Element, ShadowRoot>();
export function dialogRoot(host: Element): ShadowRoot | undefined {
  return roots.get(host);
}

export function openDialog(doc: Document, checking: number, signal: AbortSignal): GuardDialog {
  const win = doc.defaultView as Window;
  const palette = paletteFor(win);
  const look = looks(palette);
  const ring = focusRing(palette);
  const host = doc.createElement(DIALOG_TAG);
  setStyle(host, look.host);
  // Its words are in the UI language, whatever the page's.
  host.lang = uiLanguage();
  const root = host.attachShadow({ mode: 'closed' });
  roots.set(host, root);
  const local = new AbortController();
  const stop = () => local.abort();
  signal.addEventListener('abort', stop, { once: true });
  isolateEvents(root, local.signal);

  const backdrop = h(doc, 'div', look.backdrop);
  const panel = h(doc, 'div', look.panel);
  panel.setAttribute('role', 'alertdialog');
  panel.setAttribute('aria-modal', 'true');
  panel.setAttribute('aria-labelledby', 'vm-guard-title');
  panel.setAttribute('aria-describedby', 'vm-guard-text');
  panel.tabIndex = -1;
  const title = h(doc, 'h2', look.title, t('guard_checking_title'));
  title.id = 'vm-guard-title';
  const text = h(doc, 'p', look.intro, tn('guard_checking_text', checking));
  text.id = 'vm-guard-text';
  const list = h(doc, 'ul', look.list);
  const actions = h(doc, 'div', look.actions);
  panel.append(title, text, list, actions);
  backdrop.append(panel);
  root.append(backdrop);

  let settle: (choice: Choice) => void = () => undefined;
  const choice = new Promise<Choice>((resolve) => {
    settle = resolve;
  });
  const button = (label: string, style: 'primary' | 'secondary' | 'small', onPress: () => void) => {
    const el = h(doc, 'button', look[style], label);
    el.type = 'button';
    el.addEventListener(
      'click',
      (event) => {
        if (isUserEvent(event)) onPress();
      },
      { signal: local.signal },
    );
    el.addEventListener('focus', () => setStyle(el, ring), { signal: local.signal });
    el.addEventListener(
      'blur',
      () => {
        el.style.removeProperty('outline');
        el.style.removeProperty('outline-offset');
      },
      { signal: local.signal },
    );
    return el;
  };
  const edit = button(t('guard_edit'), 'secondary', () => settle('edit'));
  const send = button(t('guard_send_anyway'), 'primary', () => settle('send'));
  actions.append(edit, send);

  const focusables = () => [...root.querySelectorAll('button')];
  root.addEventListener(
    'keydown',
    (event) => {
      const key = event as KeyboardEvent;
      if (!isUserEvent(key)) return;
      if (key.key === 'Escape') {
        key.preventDefault();
        settle('edit');
      } else if (key.key === 'Tab') {
        const all = focusables();
        const at = all.indexOf(root.activeElement as HTMLButtonElement);
        const next = key.shiftKey ? (at <= 0 ? all.length - 1 : at - 1) : (at + 1) % all.length;
        key.preventDefault();
        all[next]?.focus();
      }
    },
    { signal: local.signal },
  );
  // Focus that leaves the dialog (a click on the backdrop, a page script) is brought back.
  host.addEventListener(
    'focusout',
    () => {
      win.setTimeout(() => {
        if (!local.signal.aborted && root.activeElement === null) edit.focus();
      }, 0);
    },
    { signal: local.signal },
  );

  (doc.body ?? doc.documentElement).append(host);
  edit.focus();

  return {
    choice,
    warn(flagged, replace) {
      title.textContent = t('guard_title');
      text.textContent = t('guard_text');
      list.replaceChildren();
      let left = flagged.length;
      for (const f of flagged) {
        const row = h(doc, 'li', look.row);
        const head = h(doc, 'div');
        head.append(
          h(doc, 'span', look.email, f.email),
          h(
            doc,
            'span',
            { ...look.status, color: f.status === 'risky' ? palette.warn : palette.danger },
            statusWord(f.status),
          ),
        );
        row.append(head);
        const sentence = reasonSentence(f.reason);
        if (sentence) row.append(h(doc, 'p', look.reason, sentence));
        if (f.suggestion) {
          const line = h(doc, 'p', look.suggestion);
          const replaceButton = button(t('guard_replace'), 'small', () => {
            if (!replace(f)) return;
            line.replaceChildren(h(doc, 'span', {}, t('guard_replaced', f.suggestion ?? '')));
            left -= 1;
            if (left === 0) settle('edit');
            else send.focus();
          });
          replaceButton.setAttribute('aria-label', t('guard_replace_label', f.email, f.suggestion));
          line.append(h(doc, 'span', {}, t('guard_suggestion', f.suggestion)), replaceButton);
          row.append(line);
        }
        list.append(row);
      }
      edit.focus();
    },
    isOpen: () => host.isConnected,
    cancel: () => settle('edit'),
    close() {
      stop();
      signal.removeEventListener('abort', stop);
      host.remove();
    },
  };
}
