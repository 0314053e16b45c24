/** The offscreen page: whom it answers, and that it lets go of its blob URLs and itself. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  fromBackground,
  IDLE_CLOSE_MS,
  SUBSET_URL_LIFETIME_MS,
  SubsetUrls,
  startSubsetPage,
} from './subset-page';

const ID = fakeBrowser.runtime.id;

describe('the offscreen page answers', () => {
  it('the extension’s own background only', () => {
    const own = fakeBrowser.runtime.getURL('/background.js');
    expect(fromBackground({ id: ID, url: own })).toBe(true);
    // A content script (it has a tab), another extension, a web page: refused.
    expect(fromBackground({ id: ID, url: own, tab: { id: 1 } })).toBe(false);
    expect(fromBackground({ id: 'evil', url: 'chrome-extension://evil/background.js' })).toBe(false);
    expect(fromBackground({ id: ID, url: 'https://crm.example.com/' })).toBe(false);
    expect(fromBackground({ id: ID })).toBe(false);
  });
});

describe('the offscreen page lets go of what it made, whatever the service worker does', () => {
  const made: string[] = [];
  const revoked: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    made.length = 0;
    revoked.length = 0;
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      made.push(`blob:test/${made.length + 1}`);
      return made.at(-1) as string;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('revokes each blob URL after its lifetime and closes itself when none is left', () => {
    const close = vi.fn();
    const urls = new SubsetUrls(close);
    const a = urls.make(new Blob(['a']));
    vi.advanceTimersByTime(SUBSET_URL_LIFETIME_MS / 2);
    const b = urls.make(new Blob(['b']));
    // The worker never says the downloads ended (it was stopped): the first still goes in time.
    vi.advanceTimersByTime(SUBSET_URL_LIFETIME_MS / 2);
    expect(revoked).toEqual([a]);
    expect(close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(SUBSET_URL_LIFETIME_MS / 2);
    expect(revoked).toEqual([a, b]);
    vi.advanceTimersByTime(IDLE_CLOSE_MS);
    expect(close).toHaveBeenCalledOnce();
    expect(urls.size).toBe(0);
  });

  it('revokes at once when the background says so, once, and stays open for a request in progress', () => {
    const close = vi.fn();
    const urls = new SubsetUrls(close);
    const a = urls.make(new Blob(['a']));
    urls.revoke(a);
    urls.revoke(a);
    expect(revoked).toEqual([a]);
    // A new subset is being built before the idle pause ends: the document stays.
    urls.busy();
    vi.advanceTimersByTime(IDLE_CLOSE_MS * 3);
    expect(close).not.toHaveBeenCalled();
    const b = urls.make(new Blob(['b']));
    urls.revoke(b);
    vi.advanceTimersByTime(IDLE_CLOSE_MS);
    expect(close).toHaveBeenCalledOnce();
  });

  it('answers the background: a revoke message revokes what it made, then the page closes', async () => {
    const close = vi.fn();
    const listeners: ((message: unknown, sender: unknown) => unknown)[] = [];
    vi.spyOn(fakeBrowser.runtime.onMessage, 'addListener').mockImplementation(
      (l) => void listeners.push(l as never),
    );
    const urls = startSubsetPage(new SubsetUrls(close));
    const url = urls.make(new Blob(['x']));
    const background = { id: ID, url: fakeBrowser.runtime.getURL('/background.js') };
    // A content script cannot make it revoke anything.
    expect(
      listeners[0]?.({ verimarkOffscreen: 'revoke', url }, { ...background, tab: { id: 1 } }),
    ).toBeUndefined();
    expect(revoked).toEqual([]);
    await listeners[0]?.({ verimarkOffscreen: 'revoke', url }, background);
    expect(revoked).toEqual([url]);
    vi.advanceTimersByTime(IDLE_CLOSE_MS);
    expect(close).toHaveBeenCalledOnce();
  });
});
