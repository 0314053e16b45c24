/**
 * The send guard (docs/design.md §5). Listens in the capture phase on the window — before the
 * page's own handlers on the Send button or the compose — for the user's own (trusted) presses of
 * Send: pointer/mouse down, up and click on the button, Enter/Space on it, Ctrl/Cmd+Enter in the
 * compose. The decision is synchronous, from the verdicts the content script already holds:
 *
 * - nothing to warn about → the event is not touched at all: the page's handlers get the user's
 *   own, trusted event;
 * - a recipient undeliverable (or invalid, or risky when the options say so) → the press is held
 *   back (preventDefault + stopImmediatePropagation on every event of that press) and the dialog
 *   opens;
 * - verdicts still coming (pending, or unverified over the page budget: verified now, they are
 *   about to be sent to) → held back, "Checking recipients…" for at most WAIT_MS, then the
 *   warning or the send.
 *
 * The hold itself is here, in the marking script, and synchronous, so even the first Send of a
 * page is caught; the dialog and what follows (lib/on-demand/send-guard/held.ts) are not: they come with the on-demand
 * script (lib/content/overlay/load.ts), asked for once a press is held back.
 *
 * A held-back send goes out only by a faithful re-trigger (retrigger.ts explains it): after
 * "Send anyway" (the user's second press), or when the check ends with nothing to warn about,
 * fails, times out, the dialog's script cannot be had or the extension stops meanwhile (fail
 * open). Any exception while deciding lets the original event through. The guard never sends without the user having pressed Send.
 */

import { isUserEvent } from '@/lib/content/marking/user-event';
import type { GuardDialog } from '@/lib/on-demand/send-guard/dialog';
import type { followHeld } from '@/lib/on-demand/send-guard/held';
import { composeOf, composeRecipients, sendButtonIn, sendButtonOnPath } from './compose';
import { type Decision, decide, type GuardOptions, type Verdicts } from './decide';
import { isOwnEvent, pressButton, repeatKey } from './retrigger';

/** What follows a hold (lib/on-demand/send-guard/held.ts), from the on-demand script. */
export interface GuardUi {
  followHeld: typeof followHeld;
}

interface SendGuardDeps {
  win: Window;
  signal: AbortSignal;
  book: Verdicts;
  /** Current options; null turns the guard off (e.g. the site's guard was switched off). */
  options(): GuardOptions | null;
  /** The code of what follows a hold (loadUi in the content script); a rejection lets the send go on. */
  ui(): Promise<GuardUi>;
}

/** What was pressed: enough to press it again. */
interface Press {
  compose: Element;
  button: Element | null;
  key: { target: EventTarget; event: KeyboardEvent } | null;
  /** Where focus was when Send was pressed (it goes back there after "Edit recipients"). */
  focus: Element | null;
}

function deepActive(doc: Document): Element | null {
  let el = doc.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

export function startSendGuard(deps: SendGuardDeps): void {
  const { win, signal, book } = deps;
  let busy = false;
  /** The dialog of the press being handled (checking or warning). */
  let shown: GuardDialog | null = null;
  let runs = 0;
  /** The pointer press under way on a Send button, and whether it is held back. */
  let press: { button: Element; hold: boolean; seen: Set<string> } | null = null;
  /** A held-back key press: its repeats, keypress and keyup are held back too. */
  let heldKey: string | null = null;

  const hold = (event: Event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };

  /** True when this press must be held back; starts the check or the dialog. */
  const shouldHold = (p: Press): boolean => {
    // A press while a check or a warning is under way is part of it — unless the page removed
    // the dialog: then that one ends as "Edit recipients" and this press is decided afresh.
    if (busy && (shown === null || shown.isOpen())) return true;
    if (busy) {
      shown?.cancel();
      shown = null;
    }
    try {
      const opts = deps.options();
      if (!opts) return false;
      const decision = decide(composeRecipients(p.compose), book, opts);
      if (decision.action === 'pass') return false;
      busy = true;
      const id = ++runs;
      void follow(p, decision).finally(() => {
        if (id !== runs) return; // a later press took over
        busy = false;
        shown = null;
      });
      return true;
    } catch {
      return false; // fail open: the original event goes on
    }
  };

  const pointer = (event: Event) => {
    if (isOwnEvent(event) || !isUserEvent(event) || (event as MouseEvent).button !== 0) return;
    const button = sendButtonOnPath(event.composedPath());
    if (!button) return;
    // A press starts with pointerdown (or mousedown, or a lone click from the keyboard); its
    // other events follow the decision taken at its start.
    if (event.type === 'pointerdown' || press?.button !== button || press.seen.has(event.type)) {
      const compose = composeOf(button);
      const held =
        compose !== null && shouldHold({ compose, button, key: null, focus: deepActive(win.document) });
      press = { button, hold: held, seen: new Set() };
    }
    press.seen.add(event.type);
    if (press.hold) hold(event);
    if (event.type === 'click') press = null;
  };

  const key = (event: Event) => {
    const k = event as KeyboardEvent;
    if (isOwnEvent(k) || !isUserEvent(k)) return;
    if (heldKey !== null && k.key === heldKey) {
      if (k.type === 'keyup') heldKey = null;
      hold(k);
      return;
    }
    if (k.type !== 'keydown') return;
    const path = k.composedPath();
    const first = path[0] as Element | undefined;
    if (first?.nodeType !== 1) return;
    const onButton =
      (k.key === 'Enter' || k.key === ' ') && !k.ctrlKey && !k.metaKey ? sendButtonOnPath(path) : null;
    const shortcut = k.key === 'Enter' && (k.ctrlKey || k.metaKey) && !k.altKey;
    if (!onButton && !shortcut) return;
    const compose = composeOf(onButton ?? first);
    if (!compose) return;
    const button = onButton ?? sendButtonIn(compose);
    if (!shortcut && !button) return;
    const p: Press = {
      compose,
      button,
      key: onButton ? null : { target: first, event: k },
      focus: deepActive(win.document),
    };
    if (shouldHold(p)) {
      heldKey = k.key;
      hold(k);
    }
  };

  const resend = (p: Press) => {
    if (p.button?.isConnected) pressButton(p.button);
    else if (p.key && (p.key.target as Node).isConnected) repeatKey(p.key.target, p.key.event);
  };

  /** After the hold: the dialog and what follows (lib/on-demand/send-guard/held.ts) come with the on-demand script. */
  const follow = async (p: Press, decision: Decision): Promise<void> => {
    if (decision.action === 'wait') {
      // They are about to be written to: verified now (not from the page budget), whatever
      // phase they are in (the book asks once the cache lookup is done).
      for (const email of decision.waiting) book.verifyNow(email);
    }
    let ui: GuardUi;
    try {
      ui = await deps.ui();
      if (signal.aborted) throw new Error('stopped');
    } catch {
      resend(p); // fail open: no dialog can be shown, the user pressed Send
      return;
    }
    await ui.followHeld(
      {
        win,
        signal,
        book,
        options: deps.options,
        resend: () => resend(p),
        shown: (dialog) => {
          shown = dialog;
        },
      },
      p,
      decision,
    );
  };

  const options = { capture: true, signal };
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    win.addEventListener(type, pointer, options);
  }
  for (const type of ['keydown', 'keypress', 'keyup']) win.addEventListener(type, key, options);
}
