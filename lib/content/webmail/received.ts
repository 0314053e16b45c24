/**
 * Bodies of received messages in webmail, recognised by structure, never by English text:
 * Gmail's message body (`.a3s`, `.ii` inside a message `[data-message-id]`), Outlook on the
 * web's (`#UniqueMessageBody…`, the reading pane's `[role=document]`). Addresses in them are not
 * verified on sight: the service's probe of a sender's mail server moments after the message is
 * opened would work as a read receipt. A person can still click their mark to verify them.
 * Recipients being written to (chips, pills, typing boxes) are never held back.
 */
import type { TargetKind } from '@/lib/content/extract/targets';

const RECEIVED_BODY = '.a3s,[data-message-id] .ii,[id^="UniqueMessageBody"],[role="document"]';

/** True when `el` (of `kind`) sits in a received message's body: not to be verified on sight. */
export function inReceivedBody(el: Element, kind: TargetKind | null): boolean {
  return (kind === 'text' || kind === 'mailto') && el.closest(RECEIVED_BODY) !== null;
}
