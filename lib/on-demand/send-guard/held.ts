/**
 * What follows a press the guard held back (guard.ts): part of the on-demand script
 * (entrypoints/popover.ts), asked for once a press is held. "Checking recipients…" while verdicts
 * are coming (at most WAIT_MS), then the warning with Replace, then the user's choice: "Send
 * anyway" re-triggers the press, "Edit recipients" (or Escape) puts focus back in the compose.
 * Nothing to warn about in the end, an exception, or the extension stopping: the press is sent
 * (fail open).
 */
import { composeRecipients } from '@/lib/content/send-guard/compose';
import {
  type Decision,
  decide,
  type GuardOptions,
  type Verdicts,
  WAIT_MS,
} from '@/lib/content/send-guard/decide';
import { type GuardDialog, openDialog } from './dialog';
import { replaceRecipient } from './replace';

export interface HeldDeps {
  win: Window;
  signal: AbortSignal;
  book: Verdicts;
  options(): GuardOptions | null;
  /** Presses Send again, as the user pressed it (retrigger.ts). */
  resend(): void;
  /** The dialog shown for this press, for the guard's presses meanwhile (null once it is over). */
  shown(dialog: GuardDialog): void;
}

/** The held-back press: its compose, and where focus was (it goes back there after "Edit recipients"). */
export interface HeldPress {
  compose: Element;
  focus: Element | null;
}

const POLL_MS = 100;

export async function followHeld(deps: HeldDeps, p: HeldPress, first: Decision): Promise<void> {
  const { win, signal } = deps;
  let dialog: GuardDialog | null = null;
  try {
    let decision: Decision | { action: 'edit' } = first;
    if (decision.action === 'wait') {
      dialog = openDialog(win.document, decision.waiting.length, signal);
      deps.shown(dialog);
      decision = await waitForVerdicts(deps, p, dialog);
    }
    if (decision.action === 'edit') {
      dialog?.close();
      restoreFocus(p, null);
      return;
    }
    if (signal.aborted || decision.action !== 'warn') {
      dialog?.close();
      dialog = null;
      deps.resend();
      return;
    }
    dialog ??= openDialog(win.document, 0, signal);
    deps.shown(dialog);
    dialog.warn(decision.flagged, replaceRecipient);
    const choice = await Promise.race([dialog.choice, aborted(signal)]);
    dialog.close();
    dialog = null;
    if (choice === 'send') deps.resend();
    else if (choice === 'edit') restoreFocus(p, decision.flagged[0]?.el ?? null);
  } catch {
    // Fail open: the user pressed Send, so the send goes on.
    dialog?.close();
    deps.resend();
  }
}

/** Polls the verdicts until none is coming or WAIT_MS passed (then what is unknown passes). */
function waitForVerdicts(
  deps: HeldDeps,
  p: HeldPress,
  dialog: GuardDialog,
): Promise<Decision | { action: 'edit' }> {
  const { win, signal, book } = deps;
  return new Promise((resolve) => {
    const started = Date.now();
    let timer = 0;
    const finish = (d: Decision | { action: 'edit' }) => {
      win.clearTimeout(timer);
      resolve(d);
    };
    void dialog.choice.then((choice) => finish(choice === 'send' ? { action: 'pass' } : { action: 'edit' }));
    signal.addEventListener('abort', () => finish({ action: 'pass' }), { once: true });
    const tick = () => {
      try {
        const opts = deps.options();
        const final = Date.now() - started >= WAIT_MS;
        const d = opts
          ? decide(composeRecipients(p.compose), book, opts, final)
          : ({ action: 'pass' } as const);
        if (d.action !== 'wait') return finish(d);
        // Typed or added since the press, or found uncached by the lookup meanwhile.
        for (const email of d.waiting) if (book.isUnverified(email)) book.verifyNow(email);
      } catch {
        return finish({ action: 'pass' });
      }
      timer = win.setTimeout(tick, POLL_MS);
    };
    tick();
  });
}

function restoreFocus(p: HeldPress, flaggedEl: Element | null): void {
  const field = flaggedEl?.closest('div[name],[contenteditable="true"]');
  const box = (field?.querySelector('input,textarea') ?? field ?? p.focus) as HTMLElement | null;
  const target = box?.isConnected ? box : (p.focus as HTMLElement | null);
  target?.focus?.();
}

function aborted(signal: AbortSignal): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('aborted');
    signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}
