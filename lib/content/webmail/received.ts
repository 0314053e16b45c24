/**
 * Received mail in webmail, recognised by structure, never by English text: senders and the other
 * people of a received message (Gmail's `span[email]`, in the thread list and in an opened
 * message; Outlook's pills outside a compose well), message bodies (Gmail's `.a3s`, `.ii` inside
 * `[data-message-id]`, Outlook's `#UniqueMessageBody…` and reading pane `[role=document]`) and
 * Gmail's thread-list rows (`tr.zA`: sender, subject, snippet). Their addresses are not verified on
 * sight: it spends credits on addresses nobody asked about, and the service's probe of a sender's
 * mail server moments after the message is opened works as a read receipt. Their marks say
 * `unverified`, and a click verifies them. Recipients being written to (chips, pills in a
 * To/Cc/Bcc well, typing boxes) are never held back; `sendersOnSight` (an option, off by
 * default) verifies senders on sight again, bodies still wait.
 */
import type { TargetKind } from '@/lib/content/extract/targets';
import { fieldOf } from './recipients';

const RECEIVED_BODY = '.a3s,[data-message-id] .ii,[id^="UniqueMessageBody"],[role="document"],tr.zA';

/** True when `el` (of `kind`) belongs to received mail: not to be verified on sight. */
export function inReceivedMail(el: Element, kind: TargetKind | null, sendersOnSight = false): boolean {
  if (kind === 'message' || (kind === 'outlook' && fieldOf(el) === null)) return !sendersOnSight;
  return (kind === 'text' || kind === 'mailto') && el.closest(RECEIVED_BODY) !== null;
}
