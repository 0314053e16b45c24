import { describe, expect, it, vi } from 'vitest';
import { ADDRESS_CASES } from '@/lib/shared/testing/address-cases';
import { verdictView } from '../testing/verdict-view';
import { AddressBook, type VerifierApi } from './address-book';

/** A book whose service calls are recorded; flushes run when the test says so. */
function recordingBook() {
  const looked: string[] = [];
  const verified: string[] = [];
  const flushes: (() => void)[] = [];
  const api: VerifierApi = {
    found: async () => undefined,
    lookupCached: async (emails) => {
      looked.push(...emails);
      return Object.fromEntries(emails.map((e) => [e, null]));
    },
    verifyEmail: async (email) => {
      verified.push(email);
      return verdictView(email, 'deliverable');
    },
  };
  const book = new AddressBook({ api, budget: 5, onChange: () => {}, schedule: (f) => flushes.push(f) });
  return { book, looked, verified, flushes };
}

describe('the content script decides the shared address cases as the service does', () => {
  it.each(ADDRESS_CASES)('$input → $email', async ({ input, email }) => {
    const { book, looked, verified, flushes } = recordingBook();
    const key = book.add(input);
    expect(key).toBe(email ?? input.trim());
    expect(book.get(key)?.status).toBe(email === null ? 'invalid' : 'pending');
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
