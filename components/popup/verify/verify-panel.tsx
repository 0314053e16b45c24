/**
 * "Email address" + "Verify": a local syntax check first, then the background (cache or service).
 * A check the background could not send (service unreachable) is kept there and sent when the
 * service is back, also after the popup closed; it is listed as pending until its verdict lands in
 * the recent lookups — or, when the service refused it, listed with why and Retry / Dismiss (and
 * said where its verdict would have shown, when the popup is open as it happens).
 */

import { checkEmail } from '@verimark/contract/address';
import { useEffect, useState } from 'preact/hooks';
import { useAccount } from '@/components/popup/account';
import { useApi, useRecovered } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { useInterval } from '@/components/popup/use-interval';
import { t } from '@/lib/shared/i18n';
import { invalidVerdict } from '@/lib/shared/local-verdict';
import { sendMessage } from '@/lib/shared/messages';
import type { PendingCheckView, VerdictView } from '@/lib/shared/views';
import { refusedNamedText } from './kept-checks';
import { RecentLookups } from './recent-lookups';
import { VerdictCard } from './verdict-card';
import { statusText } from './verdict-text';

const RECENT_LIMIT = 5;
/** How often the lists are read again while a kept check waits. */
const PENDING_REFRESH_MS = 2000;
/** How long the verdict of a kept check that was just sent is waited for here. */
const SENT_WAIT_MS = 120_000;

/** A suggestion may be a whole address or just a domain. */
function suggestedAddress(current: string, suggestion: string): string {
  if (suggestion.includes('@')) return suggestion;
  return `${current.slice(0, current.lastIndexOf('@'))}@${suggestion}`;
}

/**
 * What the slot under the form shows: nothing, a check on its way, its verdict, a check the
 * background kept (service unreachable; `sentAt` once it was sent and its verdict is on the way),
 * or that kept check refused when it was sent. One at a time.
 */
type Slot =
  | { kind: 'empty' }
  | { kind: 'busy'; email: string }
  | { kind: 'verdict'; verdict: VerdictView }
  | { kind: 'kept'; email: string; sentAt: number | null }
  | { kind: 'refused'; check: PendingCheckView & { refused: NonNullable<PendingCheckView['refused']> } };

const EMPTY: Slot = { kind: 'empty' };

export function VerifyPanel() {
  const call = useApi();
  const announce = useAnnounce();
  const [input, setInput] = useState('');
  const [slot, setSlot] = useState<Slot>(EMPTY);
  const [recent, setRecent] = useState<VerdictView[]>([]);
  /** Checks the background keeps until the service is back. */
  const [pending, setPending] = useState<PendingCheckView[]>([]);
  const recovered = useRecovered();
  const { refresh: refreshAccount } = useAccount();

  const loadRecent = async () => {
    const list = await call(() => sendMessage('recentLookups', { limit: RECENT_LIMIT }), 'local');
    if (list) setRecent(list);
    return list ?? null;
  };
  const loadPending = async (sendNow = false) => {
    const list = await call(() => sendMessage('pendingChecks', { sendNow }), 'local');
    if (list) setPending(list);
    return list ?? null;
  };
  useEffect(() => {
    void loadRecent();
    void loadPending();
  }, []);

  const showVerdict = (verdict: VerdictView) => {
    setSlot({ kind: 'verdict', verdict });
    announce(t('popup_announce_verdict', verdict.email, statusText(verdict.status)));
  };

  const verify = async (raw: string, force = false) => {
    const { email, valid } = checkEmail(raw);
    if (email === '') return;
    if (!valid) {
      showVerdict(invalidVerdict(email));
      return;
    }
    setSlot({ kind: 'busy', email });
    announce(t('popup_verifying', email));
    const outcome = await call.result(
      () => sendMessage('verifyEmail', force ? { email, force } : { email }),
      'verify',
    );
    if (!outcome.ok) {
      // Not sent at all: the background keeps it and sends it when the service answers again.
      if (outcome.error?.kind === 'network') {
        setSlot({ kind: 'kept', email, sentAt: null });
        announce(t('popup_verify_queued', email));
        void loadPending();
      } else {
        setSlot(EMPTY);
        announce('');
      }
      return;
    }
    const result = outcome.value;
    showVerdict(result);
    void loadRecent();
    if (!result.cached && result.status !== 'invalid') refreshAccount();
  };

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

  const onSuggestion = (suggestion: string) => {
    const next = suggestedAddress(slot.kind === 'verdict' ? slot.verdict.email : input, suggestion);
    setInput(next);
    void verify(next);
  };

  return (
    <div class="panel-body">
      <form
        class="verify-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void verify(input);
        }}
      >
        <label for="verify-email">{t('popup_email_label')}</label>
        <div class="row">
          <input
            id="verify-email"
            type="email"
            inputMode="email"
            autoComplete="off"
            spellcheck={false}
            placeholder={t('popup_email_placeholder')}
            value={input}
            onInput={(event) => setInput(event.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={slot.kind === 'busy' || input.trim() === ''}>
            {t('popup_verify_button')}
          </button>
        </div>
      </form>
      <div class="verdict-slot">
        {slot.kind === 'busy' && <p class="muted">{t('popup_verifying', slot.email)}</p>}
        {slot.kind === 'kept' && slot.sentAt !== null && (
          <p class="muted">{t('popup_verifying', slot.email)}</p>
        )}
        {slot.kind === 'kept' && slot.sentAt === null && (
          <p class="queued" data-testid="verify-queued">
            {t('popup_verify_queued', slot.email)}
          </p>
        )}
        {slot.kind === 'refused' && (
          <p class="form-error refused-now" data-testid="verify-refused">
            {refusedNamedText(slot.check.email, slot.check.refused)}
          </p>
        )}
        {slot.kind === 'verdict' && (
          <VerdictCard
            verdict={slot.verdict}
            onSuggestion={onSuggestion}
            onAgain={() => void verify(slot.verdict.email, true)}
          />
        )}
      </div>
      <RecentLookups
        pending={pending}
        lookups={recent}
        onRetryKept={(check) => void retryKept(check)}
        onDismissKept={(check) => void dismissKept(check)}
        onSelect={(item) => {
          setInput(item.email);
          setSlot({ kind: 'verdict', verdict: { ...item, cached: true } });
        }}
      />
    </div>
  );
}
