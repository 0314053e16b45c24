/**
 * Messages from the popup to the marking script of a tab (`tabs.sendMessage`, top frame): what
 * the page holds and "Verify all on this page". The content script answers only extension pages
 * (lib/content/extension/page-actions.ts checks the sender), never another tab or a page.
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { PageAddress } from './views';

interface PageProtocolMap {
  /** Every distinct address marked on the page (its elements still in it), with its status. */
  pageAddresses(): PageAddress[];
  /** Verifies every address of the page not verified yet (one credit each); returns how many were asked. */
  verifyPage(): { asked: number };
}

export const { sendMessage: sendPageMessage, onMessage: onPageMessage } =
  defineExtensionMessaging<PageProtocolMap>();
