/**
 * The popup's page actions, answered by the marking script: the page's addresses with their
 * status, and "Verify all on this page" (an explicit act: no page budget; the popup granted the
 * tab an allowance of these addresses past the background's per-tab cap). Only extension pages may ask.
 */
import { browser } from 'wxt/browser';
import type { AddressBook } from '@/lib/content/marking/address-book';
import type { Marker } from '@/lib/content/marking/marker';
import type { PageAddress } from '@/lib/shared/views';
import { answer } from './wire';

interface Sender {
  id?: string;
  url?: string;
  tab?: unknown;
}

/** True for the extension's own pages (the popup), not for content scripts or other extensions. */
function fromExtensionPage(sender: Sender | undefined): boolean {
  if (!sender || sender.id !== browser.runtime.id || sender.tab) return false;
  return sender.url?.startsWith(browser.runtime.getURL('/')) ?? false;
}

export function pageAddresses(marker: Marker, book: AddressBook): PageAddress[] {
  const out = new Map<string, PageAddress>();
  for (const [, emails] of marker.elements()) {
    for (const email of emails) {
      const state = book.get(email);
      if (!state || out.has(email)) continue;
      out.set(email, { email, status: state.status, reason: state.verdict?.reason ?? null });
    }
  }
  return [...out.values()];
}

export function listenToPopup(marker: Marker, book: AddressBook, signal: AbortSignal): void {
  const refuse = () => {
    throw new Error('Only the extension may ask this');
  };
  answer(
    {
      pageAddresses: (sender) =>
        fromExtensionPage(sender as Sender) ? pageAddresses(marker, book) : refuse(),
      verifyPage: (sender) => {
        if (!fromExtensionPage(sender as Sender)) return refuse();
        let asked = 0;
        for (const { email } of pageAddresses(marker, book)) {
          if (!book.isUnverified(email)) continue;
          book.verifyNow(email);
          asked += 1;
        }
        return { asked };
      },
    },
    signal,
  );
}
