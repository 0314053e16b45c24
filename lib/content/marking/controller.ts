/**
 * Wires the content script together: scans the page, its open shadow roots and same-origin frames,
 * follows changes through one shared observer and SPA navigations, and stops everything when the
 * signal aborts (the WXT context is invalidated, e.g. the extension reloads).
 */

import { LazyPopovers } from '@/lib/content/overlay/load';
import { inReceivedMail } from '@/lib/content/webmail/received';
import { AddressBook, type VerifierApi } from './address-book';
import { onIdle, slicedQueue } from './idle-work';
import { listenToFields } from './inputs';
import { Marker } from './marker';
import { type Batch, TreeWatcher } from './observer';
import { type ScanSink, scanTree } from './scan';
import { Visibility } from './visibility';

/** An SPA navigation renews the page's budget only this long after the last one (or the load). */
export const BUDGET_RENEW_MS = 60_000;

interface StartOptions {
  win: Window;
  signal: AbortSignal;
  api: VerifierApi;
  budget: number;
  /** Senders of received mail are verified on sight too (an option, off by default). */
  sendersOnSight?: boolean;
  /** Called once the marker runs (e.g. to answer the popup's page actions). */
  onStarted?(marker: Marker, book: AddressBook): void;
  /** Subscribes to SPA navigations (history API, popstate, Navigation API). */
  onLocationChange?(listener: () => void): void;
}

export interface Marking {
  marker: Marker;
  book: AddressBook;
}

export function startMarking(opts: StartOptions): Marking {
  const { win, signal, api } = opts;
  /** Roots whose fields are listened to (once each; the watcher keeps the ones to observe). */
  const listened = new WeakSet<Document | ShadowRoot>();
  const frames = new WeakSet<Document>();
  let marker: Marker | null = null;
  // Work on many elements is done in slices: a thousand marks never make one long task. Each
  // slice writes with the observer paused (our own badges are no news to it).
  const work = slicedQueue<() => void>(win, signal, (job) => job(), {
    wrap: (slice) => watcher.quiet(slice),
  });
  const later = (job: () => void) => work.push(job);
  const UPDATE_CHUNK = 1000;
  const book = new AddressBook({
    api,
    budget: opts.budget,
    onChange: (emails) => {
      marker?.plan(emails);
      for (let i = 0; i < emails.length; i += UPDATE_CHUNK) {
        const part = emails.slice(i, i + UPDATE_CHUNK);
        later(() => marker?.update(part));
      }
      work.runNow();
    },
    // The cache is asked as soon as the current script is over (all of a scan's addresses in one
    // go): marks wait for its answer.
    schedule: (flush) => queueMicrotask(() => signal.aborted || flush()),
    wait: (ms) => sleep(win, signal, ms),
  });
  const popovers = new LazyPopovers(() => m, book, signal);
  const visibility = new Visibility(signal, (el) => {
    for (const email of marker?.addressesOf(el) ?? []) book.autoVerify(email);
  });
  const m = new Marker({
    book,
    signal,
    watchVisibility: (el) => watch(el),
    activate: (el, badge) => void popovers.toggle(el, badge).catch(() => undefined),
    rendered: (el) => popovers.rendered(el),
  });
  marker = m;
  // Addresses of received mail (senders, bodies) wait for a click (webmail/received.ts).
  const watch = (el: Element) =>
    inReceivedMail(el, m.kindOf(el), opts.sendersOnSight) || visibility.watch(el);
  const watcher = new TreeWatcher(win, signal, (batch) => onBatch(batch));

  const addRoot = (root: Document | ShadowRoot) => {
    watcher.observe(root);
    if (listened.has(root)) return;
    listened.add(root);
    listenToFields(root, { marker: m, verifyNow: (email) => book.verifyNow(email), win, signal });
  };
  /** What a scan reports; `eager` for content the page added (see Marker.take). */
  const sinkOf = (eager: boolean): ScanSink => ({
    defer: later,
    target: (el) => later(() => m.take(el, undefined, eager)),
    text: (el, target) =>
      later(() => {
        // A text target is read again when its text changed; other kinds keep their own reading.
        if (!m.isTaken(el)) m.take(el, target, eager);
        else if (m.kindOf(el) === 'text') m.refresh(el, true, target);
      }),
    shadowRoot: addRoot,
    frame: (frame) => {
      frame.addEventListener('load', () => attachFrame(frame), { signal });
      attachFrame(frame);
    },
  });
  const sink = sinkOf(false);
  const added = sinkOf(true);
  const attachFrame = (frame: HTMLIFrameElement | HTMLFrameElement) => {
    let doc: Document | null = null;
    try {
      doc = frame.contentDocument; // null (or a throw) for cross-origin frames: left alone
    } catch {
      doc = null;
    }
    if (!doc || frames.has(doc)) return;
    frames.add(doc);
    addRoot(doc);
    scanTree(doc, sink);
  };
  const rescan = () => {
    for (const root of watcher.liveRoots()) scanTree(root, sink);
  };
  const onBatch = (batch: Batch) => {
    if (batch.rescan) rescan();
    else for (const el of batch.added) if (el.isConnected) scanTree(el, added);
    for (const el of batch.changed) if (el.isConnected && m.kindOf(el) !== 'text') later(() => m.refresh(el));
    work.runNow();
  };

  opts.onStarted?.(m, book);
  addRoot(win.document);
  onIdle(win, signal, () => {
    scanTree(win.document, sink);
    work.runNow();
  });
  let budgetSince = Date.now();
  opts.onLocationChange?.(() => {
    // A fresh budget per page, at most once a minute: history navigation (pushState) renews nothing sooner.
    if (Date.now() - budgetSince >= BUDGET_RENEW_MS) {
      budgetSince = Date.now();
      book.resetBudget(opts.budget);
    }
    watcher.requestRescan();
    for (const el of m.unverifiedElements()) watch(el);
  });
  return { marker: m, book };
}

function sleep(win: Window, signal: AbortSignal, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const id = win.setTimeout(() => resolve(!signal.aborted), ms);
    signal.addEventListener(
      'abort',
      () => {
        win.clearTimeout(id);
        resolve(false);
      },
      { once: true },
    );
  });
}
