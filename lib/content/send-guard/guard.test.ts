// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userEvents } from '@/lib/content/marking/user-event';
import { DIALOG_TAG, dialogRoot } from '@/lib/on-demand/send-guard/dialog';
import { followHeld } from '@/lib/on-demand/send-guard/held';
import { startSendGuard } from './guard';
import { FakeVerdicts } from './testing/fake-verdicts';
import { GMAIL_LIKE, load, OUTLOOK_LIKE } from './testing/fixtures';

let book: FakeVerdicts;
let controller: AbortController;
let sent: { type: string; event: Event }[];
let risky: boolean;
let failing: boolean;
/** The on-demand script cannot be had (e.g. the extension was reloaded). */
let uiFails: boolean;
let uiLoads: number;

const $ = (selector: string) => document.querySelector(selector) as HTMLElement;
const dialog = () => {
  const host = document.querySelector(DIALOG_TAG);
  return host ? (dialogRoot(host) ?? null) : null;
};
const dialogText = () => dialog()?.textContent ?? '';
const pressDialog = (text: string) => {
  const button = [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === text);
  if (!button) throw new Error(`no dialog button ${text}; dialog: ${dialogText()}`);
  button.click();
};
const chip = (field: string, address: string) => {
  const el = document.createElement('div');
  el.setAttribute('role', 'option');
  el.setAttribute('data-hovercard-id', address);
  el.id = `chip-${address.split('@')[0]}`;
  const remove = document.createElement('div');
  // Gmail names the chip's remove control by aria-describedby; its label is the UI language's.
  remove.id = `${address.replace(/\W/g, '-')}-db`;
  remove.setAttribute('aria-label', 'Zum Entfernen dieses Chips die Entf-Taste drücken');
  el.setAttribute('aria-describedby', remove.id);
  remove.addEventListener('click', () => el.remove());
  el.append(remove);
  $(`div[name="${field}"] [role=listbox]`).append(el);
};
/** A user's click on Send: the whole sequence, as a real mouse makes it. */
const click = (el: HTMLElement) => {
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, composed: true, button: 0 }));
  }
};
const ctrlEnter = (el: HTMLElement) =>
  el.dispatchEvent(
    new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, cancelable: true }),
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The dialog opens once its script is there (here at once: a resolved promise). */
const settle = () => sleep(0);

function gmailPage() {
  load(document, GMAIL_LIKE());
  // The page's own send: the widget acts on mouseup after mousedown; Ctrl+Enter in the compose.
  let active = false;
  $('#send').addEventListener('mousedown', () => {
    active = true;
  });
  $('#send').addEventListener('mouseup', (event) => {
    if (active) sent.push({ type: 'mouseup', event });
    active = false;
  });
  $('[role=dialog]').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && event.ctrlKey) sent.push({ type: 'keydown', event });
  });
}

beforeEach(() => {
  vi.spyOn(userEvents, 'trusted').mockReturnValue(true);
  book = new FakeVerdicts();
  controller = new AbortController();
  sent = [];
  risky = false;
  failing = false;
  uiFails = false;
  uiLoads = 0;
  startSendGuard({
    win: window,
    signal: controller.signal,
    book,
    options: () => {
      if (failing) throw new Error('broken');
      return { warnRisky: risky };
    },
    ui: () => {
      uiLoads++;
      return uiFails ? Promise.reject(new Error('no script')) : Promise.resolve({ followHeld });
    },
  });
});
afterEach(() => {
  controller.abort();
  document.querySelector(DIALOG_TAG)?.remove();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the send guard on a Gmail-like compose', () => {
  it('lets a send to deliverable recipients through untouched: the user’s own event, once', () => {
    gmailPage();
    chip('to', 'bob@deliverable.test');
    book.set('bob@deliverable.test', 'deliverable');
    click($('#send'));
    expect(sent).toHaveLength(1);
    expect(dialog()).toBeNull();
    // Nothing to warn about: the dialog's script is not asked for.
    expect(uiLoads).toBe(0);
  });

  it('holds the very first press at once, before the dialog’s script is there; it opens when the script arrives', async () => {
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    click($('#send'));
    // Held synchronously, in the press's own dispatch: the page never saw it.
    expect(sent).toHaveLength(0);
    expect(dialog()).toBeNull();
    expect(uiLoads).toBe(1);
    // A second press while the script is coming is part of the same check.
    click($('#send'));
    expect(sent).toHaveLength(0);
    await settle();
    expect(dialogText()).toContain('nobody@rejecting.test');
    expect(uiLoads).toBe(1);
    pressDialog('Send anyway');
    await sleep(0);
    expect(sent).toHaveLength(1);
  });

  it('fails open when the dialog’s script cannot be had: the held press is sent once', async () => {
    uiFails = true;
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    click($('#send'));
    expect(sent).toHaveLength(0);
    await settle();
    expect(sent).toHaveLength(1);
    expect(dialog()).toBeNull();
  });

  it('holds back a send to an undeliverable recipient until “Send anyway”, then sends exactly once', async () => {
    gmailPage();
    chip('to', 'bob@deliverable.test');
    chip('cc', 'nobody@rejecting.test');
    book.set('bob@deliverable.test', 'deliverable');
    book.set('nobody@rejecting.test', 'undeliverable', { reason: 'rejected_email' });
    click($('#send'));
    expect(sent).toHaveLength(0);
    await settle();
    const panel = dialog()?.querySelector('[role=alertdialog]');
    expect(panel?.getAttribute('aria-modal')).toBe('true');
    expect(dialogText()).toContain('nobody@rejecting.test');
    expect(dialogText()).toContain('Undeliverable');
    expect(dialogText()).toContain('The mail server says this mailbox does not exist.');
    expect(dialogText()).not.toContain('bob@deliverable.test');
    pressDialog('Send anyway');
    await sleep(0);
    expect(sent).toHaveLength(1);
    expect(dialog()).toBeNull();
  });

  it('Escape means “Edit recipients”: no send, focus back in the compose', async () => {
    gmailPage();
    chip('cc', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    ctrlEnter($('#body'));
    expect(sent).toHaveLength(0);
    await settle();
    const root = dialog();
    expect(root?.activeElement?.textContent).toBe('Edit recipients');
    root
      ?.querySelector('[role=alertdialog]')
      ?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    return sleep(0).then(() => {
      expect(dialog()).toBeNull();
      expect(sent).toHaveLength(0);
      expect($('[role=dialog]').contains(document.activeElement)).toBe(true);
    });
  });

  it('keeps Tab inside the dialog', async () => {
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    click($('#send'));
    await settle();
    const root = dialog();
    const tab = (shiftKey = false) =>
      root?.activeElement?.dispatchEvent(
        new KeyboardEvent('keydown', {
          key: 'Tab',
          shiftKey,
          bubbles: true,
          composed: true,
          cancelable: true,
        }),
      );
    tab();
    expect(root?.activeElement?.textContent).toBe('Send anyway');
    tab();
    expect(root?.activeElement?.textContent).toBe('Edit recipients');
    tab(true);
    expect(root?.activeElement?.textContent).toBe('Send anyway');
  });

  it('Ctrl+Enter with a held-back send is re-sent through the compose’s Send button', async () => {
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    ctrlEnter($('#body'));
    expect(sent).toHaveLength(0);
    await settle();
    pressDialog('Send anyway');
    await sleep(0);
    expect(sent.map((s) => s.type)).toEqual(['mouseup']);
  });

  it('waits for a pending recipient (“Checking recipients…”), then sends once the verdict is good', async () => {
    gmailPage();
    chip('to', 'slow@deliverable.test');
    click($('#send'));
    expect(sent).toHaveLength(0);
    await settle();
    expect(dialogText()).toContain('Checking recipients…');
    book.set('slow@deliverable.test', 'deliverable');
    await sleep(250);
    expect(sent).toHaveLength(1);
    expect(dialog()).toBeNull();
  });

  it('verifies unverified recipients now, and warns when the verdict is bad', async () => {
    gmailPage();
    chip('to', 'over@rejecting.test');
    book.set('over@rejecting.test', 'unverified');
    click($('#send'));
    expect(book.askedNow).toEqual(['over@rejecting.test']);
    book.set('over@rejecting.test', 'undeliverable');
    await sleep(250);
    expect(dialogText()).toContain('Some recipients may not get this message');
    expect(sent).toHaveLength(0);
  });

  it('asks for a recipient the cache lookup found uncached while the check was waiting (typed text)', async () => {
    gmailPage();
    ($('#to-input') as HTMLInputElement).value = 'typed@rejecting.test';
    click($('#send'));
    expect(book.askedNow).toEqual(['typed@rejecting.test']);
    book.set('typed@rejecting.test', 'unverified');
    await sleep(150);
    expect(book.askedNow).toEqual(['typed@rejecting.test', 'typed@rejecting.test']);
    book.set('typed@rejecting.test', 'undeliverable');
    await sleep(150);
    expect(dialogText()).toContain('typed@rejecting.test');
    expect(sent).toHaveLength(0);
  });

  it('fails open: a check that never ends sends after 5 s; an exception lets the event through', async () => {
    vi.useFakeTimers();
    gmailPage();
    chip('to', 'stuck@slow.test');
    click($('#send'));
    await vi.advanceTimersByTimeAsync(4800);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(sent).toHaveLength(1);
    vi.useRealTimers();
    failing = true;
    book.set('stuck@slow.test', 'undeliverable');
    click($('#send'));
    expect(sent).toHaveLength(2);
  });

  it('fails open when the extension stops during the check; a warning open then closes without sending', async () => {
    gmailPage();
    chip('to', 'stuck@slow.test');
    click($('#send'));
    controller.abort();
    await sleep(0);
    expect(sent).toHaveLength(1);
    expect(dialog()).toBeNull();
  });

  it('a page that removes the dialog does not leave Send held forever', async () => {
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    click($('#send'));
    await settle();
    expect(dialog()).not.toBeNull();
    document.querySelector(DIALOG_TAG)?.remove();
    await sleep(0);
    click($('#send'));
    await settle();
    expect(dialog()).not.toBeNull();
    pressDialog('Send anyway');
    await sleep(0);
    expect(sent).toHaveLength(1);
  });

  it('warns for risky recipients only with the option on', async () => {
    gmailPage();
    chip('to', 'all@catch-all.test');
    book.set('all@catch-all.test', 'risky', { reason: 'catch_all' });
    click($('#send'));
    expect(sent).toHaveLength(1);
    risky = true;
    click($('#send'));
    expect(sent).toHaveLength(1);
    await settle();
    expect(dialogText()).toContain('Risky');
  });

  it('offers the suggestion with a one-click Replace: the chip goes, the new address is typed', async () => {
    gmailPage();
    chip('to', 'alice@gmial.com');
    book.set('alice@gmial.com', 'undeliverable', { reason: 'invalid_domain', suggestion: 'alice@gmail.com' });
    click($('#send'));
    await settle();
    expect(dialogText()).toContain('Did you mean alice@gmail.com?');
    const replace = dialog()?.querySelector(
      'button[aria-label="Replace alice@gmial.com with alice@gmail.com"]',
    );
    (replace as HTMLElement).click();
    await sleep(0);
    expect(document.querySelector('[data-hovercard-id="alice@gmial.com"]')).toBeNull();
    expect(($('#to-input') as HTMLInputElement).value).toBe('alice@gmail.com,');
    // Every flagged recipient replaced: the dialog closes, nothing sent; the user presses Send again.
    expect(dialog()).toBeNull();
    expect(sent).toHaveLength(0);
  });

  it('ignores the page’s own synthetic presses (only the user’s input is guarded)', async () => {
    vi.spyOn(userEvents, 'trusted').mockReturnValue(false);
    gmailPage();
    chip('to', 'nobody@rejecting.test');
    book.set('nobody@rejecting.test', 'undeliverable');
    click($('#send'));
    expect(sent).toHaveLength(1);
    await settle();
    expect(dialog()).toBeNull();
    expect(uiLoads).toBe(0);
  });
});

describe('the send guard on an Outlook-like compose', () => {
  it('holds back a click on Send with an undeliverable pill, sends once on “Send anyway”', async () => {
    load(document, OUTLOOK_LIKE());
    $('#app').addEventListener('click', (event) => {
      if ((event.target as Element).closest('button[aria-label="Send"]')) sent.push({ type: 'click', event });
    });
    const pill = document.createElement('span');
    pill.className = '_EType_RECIPIENT_ENTITY';
    pill.setAttribute('contenteditable', 'false');
    pill.setAttribute('aria-label', 'nobody@rejecting.test');
    $('#well-to').append(pill);
    book.set('nobody@rejecting.test', 'undeliverable');
    $('#send').click();
    expect(sent).toHaveLength(0);
    await settle();
    expect(dialogText()).toContain('nobody@rejecting.test');
    pressDialog('Send anyway');
    await sleep(0);
    expect(sent).toHaveLength(1);
  });
});
