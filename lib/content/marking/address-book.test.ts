import { ADDRESS_CASES } from '@verimark/contract/testing/address-cases';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { verdictView } from '@/lib/testing/verdict-view';
import { AddressBook, type VerifierApi } from './address-book';

/** A book whose service calls are recorded; flushes run when the test says so. */
function recordingBook() {
  const looked: string[] = [];
  const verified: string[] = [];
  const clicks: Record<string, boolean> = {};
  const flushes: (() => void)[] = [];
  const api: VerifierApi = {
    lookupFound: async (emails) => {
      looked.push(...emails);
      return Object.fromEntries(emails.map((e) => [e, null]));
    },
    verifyEmail: async (email, clicked) => {
      verified.push(email);
      clicks[email] = clicked;
      return verdictView(email, 'deliverable');
    },
  };
  const book = new AddressBook({ api, budget: 5, onChange: () => {}, schedule: (f) => flushes.push(f) });
  return { book, looked, verified, clicks, flushes };
}

describe('what the background is told of who asked (the daily cap counts only what nobody asked for)', () => {
  it('a verification on sight is not clicked; one the person asked for is', async () => {
    const { book, verified, clicks, flushes } = recordingBook();
    book.add('seen@example.com');
    book.add('asked@example.com');
    book.autoVerify('seen@example.com');
    book.verifyNow('asked@example.com');
    for (const flush of flushes.splice(0)) flush();
    await vi.waitFor(() => expect(verified).toHaveLength(2));
    expect(clicks).toEqual({ 'seen@example.com': false, 'asked@example.com': true });
  });
});

describe('the content script decides the shared address cases as the service does', () => {
  it.each(ADDRESS_CASES)('$input → $email', async ({ input, email }) => {
    const { book, looked, verified, flushes } = recordingBook();
    const key = book.add(input);
    expect(key).toBe(email ?? input.trim());
    expect(book.get(key)?.status).toBe(email === null ? 'invalid' : 'unverified');
    book.verifyNow(key);
    for (const flush of flushes.splice(0)) flush();
    if (email === null) {
      await new Promise((r) => setTimeout(r, 0));
      expect({ looked, verified }).toEqual({ looked: [], verified: [] });
    } else {
      await vi.waitFor(() => expect(verified).toEqual([email]));
      expect(looked).toEqual([email]);
      expect(book.get(email)?.status).toBe('deliverable');
    }
  });
});

describe('a verification refused by the per-tab cap', () => {
  it('leaves the mark unverified (click to verify), not error', async () => {
    const flushes: (() => void)[] = [];
    let capped = true;
    const api: VerifierApi = {
      lookupFound: async (emails) => Object.fromEntries(emails.map((e) => [e, null])),
      verifyEmail: async (email) => {
        // As it crosses the runtime message: an Error with the ApiError's fields, not an instance.
        if (capped)
          throw Object.assign(new Error('Too many verifications from this page; try again later'), {
            name: 'ApiError',
            kind: 'rate_limited',
            retryAfterSeconds: 60,
          });
        return verdictView(email, 'deliverable');
      },
    };
    let waits = 0;
    const book = new AddressBook({
      api,
      budget: 0,
      onChange: () => {},
      schedule: (f) => flushes.push(f),
      // A refusal from the background is not a lost message: never waited for and asked again.
      wait: async () => {
        waits += 1;
        return true;
      },
    });
    const email = book.add('ann@example.com');
    for (const flush of flushes.splice(0)) flush();
    await vi.waitFor(() => expect(book.get(email)?.phase).toBe('uncached'));
    book.verifyNow(email);
    await vi.waitFor(() => expect(book.get(email)?.phase).not.toBe('verifying'));
    expect(book.get(email)?.status).toBe('unverified');
    expect(book.isUnverified(email)).toBe(true);
    expect(waits).toBe(0);
    // Click to verify once the cap allows again.
    capped = false;
    book.verifyNow(email);
    await vi.waitFor(() => expect(book.get(email)?.status).toBe('deliverable'));
  });

  it('still shows error for other failures', async () => {
    const flushes: (() => void)[] = [];
    const api: VerifierApi = {
      lookupFound: async (emails) => Object.fromEntries(emails.map((e) => [e, null])),
      verifyEmail: async () => {
        throw new ApiError('payment_required', 'No credits left', 402);
      },
    };
    const book = new AddressBook({ api, budget: 0, onChange: () => {}, schedule: (f) => flushes.push(f) });
    const email = book.add('ann@example.com');
    for (const flush of flushes.splice(0)) flush();
    await vi.waitFor(() => expect(book.get(email)?.phase).toBe('uncached'));
    book.verifyNow(email);
    await vi.waitFor(() => expect(book.get(email)?.status).toBe('error'));
  });
});
