// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { LOOKUP_MAX } from '@/lib/shared/messages';
import type { MarkStatus } from '@/lib/shared/views';
import { verdictView } from '@/lib/testing/verdict-view';
import type { VerifierApi } from './address-book';
import { BUDGET_RENEW_MS, startMarking } from './controller';
import { STATUS_ATTR } from './marker';
import { BADGE_TAG } from './scan';
import { userEvents } from './user-event';

/** IntersectionObserver that reports every observed element as visible at once. */
class AllVisible {
  constructor(private readonly cb: (entries: { isIntersecting: boolean; target: Element }[]) => void) {}
  observe(target: Element) {
    queueMicrotask(() => this.cb([{ isIntersecting: true, target }]));
  }
  unobserve() {}
  disconnect() {}
}

function fakeApi(cache: Record<string, MarkStatus> = {}) {
  const verified: string[] = [];
  const api: VerifierApi = {
    lookupFound: async (emails) =>
      Object.fromEntries(
        emails.map((e) => [e, cache[e] ? verdictView(e, cache[e], { cached: true }) : null]),
      ),
    verifyEmail: async (email) => {
      verified.push(email);
      return verdictView(email, email.startsWith('bad') ? 'undeliverable' : 'deliverable');
    },
  };
  return { api, verified };
}

const statusOf = (el: Element | null | undefined) => el?.getAttribute(STATUS_ATTR) ?? null;

async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
}

/** Events dispatched here are untrusted, as a page's are; `asUser` makes them count as the user's. */
const pageTrust = userEvents.trusted;
const asUser = () => {
  userEvents.trusted = () => true;
};

/** Waits until `check` passes (idle callbacks and timers run late on a busy machine). */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

describe('startMarking', () => {
  let controller: AbortController;
  beforeEach(() => {
    vi.stubGlobal('IntersectionObserver', AllVisible);
    // The catalog's key and its substitutions, so tests can read what a label says.
    vi.spyOn(browser.i18n, 'getMessage').mockImplementation((key: string, subs?: string | string[]) =>
      [key, ...[subs ?? []].flat()].join('|'),
    );
    controller = new AbortController();
    document.body.replaceChildren();
  });
  afterEach(() => {
    controller.abort();
    vi.unstubAllGlobals();
    userEvents.trusted = pageTrust;
    vi.restoreAllMocks();
  });

  it('marks links, inputs and chips; invalid locally; one verification per distinct address', async () => {
    document.body.innerHTML = `
      <a id="l1" href="mailto:good@x.test">a</a><a id="l2" href="mailto:good@x.test?cc=bad@x.test">b</a>
      <input id="i1" type="email" value="not-an-address">
      <div name="to"><div id="c1" data-hovercard-id="cached@x.test">Jo</div></div>`;
    const { api, verified } = fakeApi({ 'cached@x.test': 'risky' });
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await eventually(() => {
      expect(statusOf(document.getElementById('l1'))).toBe('deliverable');
      expect(statusOf(document.getElementById('l2'))).toBe('undeliverable');
      expect(statusOf(document.getElementById('i1'))).toBe('invalid');
      expect(statusOf(document.getElementById('c1'))).toBe('risky');
    });
    await settle();
    expect(verified.sort()).toEqual(['bad@x.test', 'good@x.test']);
    expect(document.querySelectorAll(BADGE_TAG)).toHaveLength(4);
  });

  it('looks up a page of many addresses in parts of at most LOOKUP_MAX', async () => {
    const count = LOOKUP_MAX * 2 + 7;
    document.body.innerHTML = Array.from(
      { length: count },
      (_, i) => `<a href="mailto:u${i}@x.test">u</a>`,
    ).join('');
    const cache = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`u${i}@x.test`, 'risky' as const]),
    );
    const { api, verified } = fakeApi(cache);
    const sizes: number[] = [];
    const lookup = api.lookupFound;
    api.lookupFound = (emails) => {
      sizes.push(emails.length);
      return lookup(emails);
    };
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await eventually(() =>
      expect([...document.querySelectorAll('a')].every((a) => statusOf(a) === 'risky')).toBe(true),
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LOOKUP_MAX);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(count);
    expect(verified).toEqual([]);
  }, 30_000);

  it('follows content added later, inside open shadow roots too', async () => {
    const { api } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const link = document.createElement('a');
    link.href = 'mailto:late@x.test';
    shadow.append(link);
    await eventually(() => expect(statusOf(link)).toBe('deliverable'));
    const chip = document.createElement('div');
    chip.setAttribute('data-hovercard-id', 'chip@x.test');
    const to = document.createElement('div');
    to.setAttribute('name', 'to');
    to.append(chip);
    shadow.append(to);
    await eventually(() => expect(statusOf(chip)).toBe('deliverable'));
  });

  it('finds open shadow roots deep inside an added row: on custom elements and on the tags that can host one', async () => {
    const { api } = fakeApi();
    const first = Object.assign(document.createElement('a'), { href: 'mailto:first@x.test' });
    document.body.append(first);
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    // The page's first scan is over: what follows is found as added content only.
    await eventually(() => expect(statusOf(first)).toBe('deliverable'));
    const table = document.createElement('table');
    document.body.append(table);
    const row = document.createElement('tr');
    row.innerHTML = '<td><x-card></x-card></td><td><b><span></span></b></td>';
    const links = ['mailto:card@x.test', 'mailto:span@x.test'].map((href, i) => {
      const host = row.querySelectorAll('x-card, span')[i] as Element;
      const link = Object.assign(document.createElement('a'), { href });
      host.attachShadow({ mode: 'open' }).append(link);
      return link;
    });
    table.append(row);
    await eventually(() => expect(links.map(statusOf)).toEqual(['deliverable', 'deliverable']));
  });

  it('watches a shadow root again when its host comes back to the page', async () => {
    const { api } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    const host = document.createElement('div');
    document.body.append(host);
    const shadow = host.attachShadow({ mode: 'open' });
    const first = Object.assign(document.createElement('a'), { href: 'mailto:first@x.test' });
    shadow.append(first);
    await eventually(() => expect(statusOf(first)).toBe('deliverable'));
    // The host leaves the page; marks written meanwhile forget its root.
    host.remove();
    const outside = Object.assign(document.createElement('a'), { href: 'mailto:outside@x.test' });
    document.body.append(outside);
    await eventually(() => expect(statusOf(outside)).toBe('deliverable'));
    // Back on the page: what is added inside it later is marked again.
    document.body.append(host);
    await settle();
    const later = Object.assign(document.createElement('a'), { href: 'mailto:later@x.test' });
    shadow.append(later);
    await eventually(() => expect(statusOf(later)).toBe('deliverable'));
  });

  it('stops at the budget: the rest waits for an explicit Verify', async () => {
    document.body.innerHTML = ['a', 'b', 'c', 'd']
      .map((x) => `<a href="mailto:${x}@x.test">${x}</a>`)
      .join('');
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 2 });
    await eventually(() => expect(verified).toHaveLength(2));
    await settle();
    expect(verified).toHaveLength(2);
    const statuses = [...document.querySelectorAll('a')].map(statusOf);
    expect(statuses.filter((s) => s === 'deliverable')).toHaveLength(2);
    // Found but not asked: its own status, not `pending` (nothing is out).
    expect(statuses.filter((s) => s === 'unverified')).toHaveLength(2);
    const waiting = [...document.querySelectorAll('a')].find((a) => statusOf(a) === 'unverified');
    const badge = waiting?.nextElementSibling as HTMLElement | null;
    expect(badge?.localName).toBe(BADGE_TAG);
    expect(badge?.getAttribute('role')).toBe('button');
    expect(badge?.tabIndex).toBe(0);
    expect(badge?.getAttribute('aria-label')).toContain('content_status_unverified');
    // A page's synthetic click does not open it (only a person's click or key does).
    badge?.click();
    badge?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    expect(badge?.getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelector('verimark-overlay')).toBeNull();
    expect(verified).toHaveLength(2);
  });

  it('a SPA navigation starts a fresh budget for what is still unverified, at most once a minute', async () => {
    document.body.innerHTML = ['a', 'b', 'c', 'd']
      .map((x) => `<a href="mailto:${x}@x.test">${x}</a>`)
      .join('');
    const { api, verified } = fakeApi();
    let navigate = () => {};
    const start = Date.now();
    let now = start;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    startMarking({
      win: window,
      signal: controller.signal,
      api,
      budget: 1,
      onLocationChange: (l) => (navigate = l),
    });
    await eventually(() => expect(verified).toHaveLength(1));
    // pushState after pushState within the minute: no fresh budget.
    for (let i = 0; i < 5; i++) {
      now = start + (i + 1) * 10_000;
      navigate();
    }
    await settle();
    expect(verified).toHaveLength(1);
    now = start + BUDGET_RENEW_MS;
    navigate();
    await eventually(() => expect(verified).toHaveLength(2));
    now += 1000;
    navigate();
    await settle();
    expect(verified).toHaveLength(2);
  });

  it('a committed field verifies the value the person typed, not one the page swaps in after', async () => {
    document.body.innerHTML = '<input id="f" type="email">';
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 0 });
    await settle();
    const field = document.getElementById('f') as HTMLInputElement;
    asUser();
    field.value = 'typed@x.test';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    // The page swaps its own address in right after the person's commit.
    field.value = 'swapped@x.test';
    await eventually(() => expect(verified).toEqual(['typed@x.test']));
    // The mark reads the field again after the typing pause: the swapped value is shown, unverified.
    await new Promise((r) => setTimeout(r, 1000));
    await settle();
    expect(verified).toEqual(['typed@x.test']);
    expect(statusOf(field)).toBe('unverified');
  });

  it('received mail waits for a click: senders in a thread list and an opened message, bodies', async () => {
    document.body.innerHTML = `
      <table><tr class="zA"><td><span id="s1" class="yP" email="list@x.test" name="L">L</span></td>
      <td><span class="y2">reply to snippet@x.test</span></td></tr></table>
      <div data-message-id="#m"><h3><span id="s2" class="gD" email="sender@x.test">S</span></h3>
      <div class="ii gt"><div class="a3s"><a id="b1" href="mailto:body@x.test">b</a></div></div></div>
      <div name="to"><div role="option" id="c1" data-hovercard-id="to@x.test">T</div></div>`;
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await eventually(() => expect(statusOf(document.getElementById('c1'))).toBe('deliverable'));
    await settle();
    for (const id of ['s1', 's2', 'b1']) expect(statusOf(document.getElementById(id)), id).toBe('unverified');
    expect(verified).toEqual(['to@x.test']);
  });

  it('senders are verified on sight when the option is on; bodies still wait', async () => {
    document.body.innerHTML = `<span id="s1" email="list@x.test">L</span>
      <div class="a3s"><a id="b1" href="mailto:body@x.test">b</a></div>`;
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25, sendersOnSight: true });
    await eventually(() => expect(statusOf(document.getElementById('s1'))).toBe('deliverable'));
    await settle();
    expect(statusOf(document.getElementById('b1'))).toBe('unverified');
    expect(verified).toEqual(['list@x.test']);
  });

  it('a typed address costs nothing until the field changes or loses focus', async () => {
    document.body.innerHTML = '<input id="f" type="email">';
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await settle();
    const field = document.getElementById('f') as HTMLInputElement;
    field.value = 'typed@x.test';
    // The page's own events (untrusted) change nothing, not even a commit.
    for (const type of ['input', 'change', 'focusout'])
      field.dispatchEvent(new Event(type, { bubbles: true }));
    await new Promise((r) => setTimeout(r, 900));
    expect(statusOf(field)).toBeNull();
    asUser();
    // A trusted blur of a value the user did not type (the page wrote it, then blur()): no spend.
    field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 400));
    expect(verified).toEqual([]);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => setTimeout(r, 900));
    await settle();
    expect(statusOf(field)).toBe('unverified');
    expect(verified).toEqual([]);
    field.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    await eventually(() => expect(statusOf(field)).toBe('deliverable'));
    expect(verified).toEqual(['typed@x.test']);
  });

  it('stops following the page once the signal aborts', async () => {
    const { api, verified } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    controller.abort();
    const link = document.createElement('a');
    link.href = 'mailto:after@x.test';
    document.body.append(link);
    await settle();
    expect(statusOf(link)).toBeNull();
    expect(verified).toEqual([]);
  });

  it('marks malformed mailto links and fields invalid, without asking the service', async () => {
    document.body.innerHTML = `
      <a id="m1" href="mailto:bob.good.test">Bob</a><a id="m2" href="mailto:frank@">Frank</a>
      <a id="m3" href="mailto:dave@good.test/x">Dave</a><a id="m4" href="mailto:j%C3%B6hn@example.com">J</a>
      <a id="m5" href="mailto:?subject=Hello">no recipient</a>
      <input id="f1" type="email" value="frank@"><input id="f2" name="email" value=".dave@good.test">`;
    const { api, verified } = fakeApi();
    const looked: string[] = [];
    const lookupFound = api.lookupFound;
    api.lookupFound = (emails) => {
      looked.push(...emails);
      return lookupFound(emails);
    };
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await eventually(() => {
      for (const id of ['m1', 'm2', 'm3', 'm4', 'f1', 'f2']) {
        expect(statusOf(document.getElementById(id)), id).toBe('invalid');
      }
    });
    await settle();
    expect(statusOf(document.getElementById('m5'))).toBeNull();
    expect({ looked, verified }).toEqual({ looked: [], verified: [] });
  });

  it('renders hostile text as text and stops cleanly on abort', async () => {
    (window as unknown as { pwned?: number }).pwned = undefined;
    const link = document.createElement('a');
    link.href = 'mailto:x@y.test?cc=%3Cimg%20src%3Dx%20onerror%3D%22window.pwned%3D1%22%3E';
    document.body.append(link);
    const input = document.createElement('input');
    input.type = 'email';
    input.value = '<img src=x onerror="window.pwned=1">';
    document.body.append(input);
    const { api } = fakeApi();
    startMarking({ win: window, signal: controller.signal, api, budget: 25 });
    await eventually(() => expect(statusOf(input)).toBe('invalid'));
    const badge = input.nextElementSibling;
    expect(badge?.getAttribute('aria-label')).toContain('<img src=x onerror="window.pwned=1">');
    expect(badge?.childElementCount).toBe(0);
    expect(badge?.textContent).toBe('');
    expect(document.querySelector('img')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    controller.abort();
    expect(document.querySelectorAll(BADGE_TAG)).toHaveLength(0);
  });
});
