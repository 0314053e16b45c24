/**
 * Messages from the popup to the marking script of a tab (`tabs.sendMessage`, top frame): what
 * the page holds and "Verify all on this page". The content script answers only extension pages
 * (lib/content/page-actions.ts checks the sender), never another tab or a page.
 */
import { defineExtensionMessaging } from '@webext-core/messaging';
import type { MarkStatus } from './messages';

/** The values of `data-verimark-status` (docs/design.md, observable contract). */
export type PageStatus = MarkStatus | 'unverified';

export interface PageAddress {
  /** Normalized address. */
  email: string;
  status: PageStatus;
  /** The service's reason code, when there is a verdict. */
  reason: string | null;
}

interface PageProtocolMap {
  /** Every distinct address marked on the page (its elements still in it), with its status. */
  pageAddresses(): PageAddress[];
  /** Verifies every address of the page not verified yet (one credit each); returns how many were asked. */
  verifyPage(): { asked: number };
}

export const { sendMessage: sendPageMessage, onMessage: onPageMessage } =
  defineExtensionMessaging<PageProtocolMap>();
