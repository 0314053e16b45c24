/**
 * A check the background kept (service unreachable), followed from the verify tab: both lists are
 * read again while it waits, and once answered the slot shows its verdict, or why the service
 * refused it when it was sent; Retry and Dismiss on a refused one.
 */
import { useEffect } from 'preact/hooks';
import { type ApiCall, useRecovered } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { useInterval } from '@/components/popup/use-interval';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { PendingCheckView } from '@/lib/shared/views';
import type { useLookupLists } from './use-lookup-lists';
import { EMPTY, type Slot } from './verdict-slot';
import { statusText } from './verdict-text';

/** How often the lists are read again while a kept check waits. */
const PENDING_REFRESH_MS = 2000;
/** How long the verdict of a kept check that was just sent is waited for here. */
const SENT_WAIT_MS = 120_000;

export function useKeptFollowUp({
  slot,
  setSlot,
  lists,
  call,
  refreshAccount,
}: {
  slot: Slot;
  setSlot: (next: Slot | ((now: Slot) => Slot)) => void;
  lists: ReturnType<typeof useLookupLists>;
  call: ApiCall;
  refreshAccount: () => void;
}) {
  const announce = useAnnounce();
  const recovered = useRecovered();
  const { pending, loadPending, loadRecent } = lists;

  /** Reads both lists; the check just asked, once answered, shows its verdict (or why it was refused). */
  const refreshKept = async (sendNow = false) => {
    const [left, list] = await Promise.all([loadPending(sendNow), loadRecent()]);
    if (slot.kind !== 'kept' || !left) return;
    const { email, sentAt } = slot;
    // Only while the slot still shows this check (a new Verify may have started meanwhile).
    const replace = (next: Slot) =>
      setSlot((now) => (now.kind === 'kept' && now.email === email ? next : now));
    const kept = left.find((check) => check.email === email);
    if (kept?.refused) {
      replace({ kind: 'refused', check: { ...kept, refused: kept.refused } });
      // The sentence itself is in the verdict slot; the status line says it briefly.
      announce(t('popup_kept_refused_announce', kept.email));
      return;
    }
    if (kept) return;
    const done = list?.find((item) => item.email === email);
    if (done) {
      replace({ kind: 'verdict', verdict: done });
      announce(t('popup_announce_verdict', done.email, statusText(done.status)));
      refreshAccount();
      return;
    }
    // Sent: the service is verifying it. Waited for a while, then left to the recent list.
    if (sentAt === null) replace({ kind: 'kept', email, sentAt: Date.now() });
    else if (Date.now() - sentAt >= SENT_WAIT_MS) replace(EMPTY);
  };
  useEffect(() => {
    if (recovered > 0) void refreshKept(true);
  }, [recovered]);
  const waiting = pending.some((check) => !check.refused);
  useInterval(() => void refreshKept(), waiting || slot.kind === 'kept' ? PENDING_REFRESH_MS : null);

  const retryKept = async (check: PendingCheckView) => {
    setSlot({ kind: 'kept', email: check.email, sentAt: null });
    await call(() => sendMessage('retryPendingCheck', { email: check.email, mode: check.mode }), 'local');
    void loadPending();
  };
  const dismissKept = async (check: PendingCheckView) => {
    if (slot.kind === 'refused' && slot.check.email === check.email) setSlot(EMPTY);
    await call(() => sendMessage('dismissPendingCheck', { email: check.email, mode: check.mode }), 'local');
    announce(t('popup_dismissed', check.email));
    void loadPending();
  };

  return { retryKept, dismissKept };
}
