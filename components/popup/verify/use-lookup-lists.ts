/**
 * The verify tab's two lists, read from the background: the recent lookups and the checks it
 * keeps until the service is back (pending, or refused when they were sent).
 */
import { useEffect, useState } from 'preact/hooks';
import type { ApiCall } from '@/components/popup/api-status';
import { sendMessage } from '@/lib/shared/messages';
import type { PendingCheckView, VerdictView } from '@/lib/shared/views';

const RECENT_LIMIT = 5;

export function useLookupLists(call: ApiCall) {
  const [recent, setRecent] = useState<VerdictView[]>([]);
  const [pending, setPending] = useState<PendingCheckView[]>([]);

  const loadRecent = async () => {
    const list = await call(() => sendMessage('recentLookups', { limit: RECENT_LIMIT }), 'local');
    if (list) setRecent(list);
    return list ?? null;
  };
  /** `sendNow`: the service answered again, so the background sends what it keeps at once. */
  const loadPending = async (sendNow = false) => {
    const list = await call(() => sendMessage('pendingChecks', { sendNow }), 'local');
    if (list) setPending(list);
    return list ?? null;
  };
  useEffect(() => {
    void loadRecent();
    void loadPending();
  }, []);

  return { recent, pending, loadRecent, loadPending };
}
