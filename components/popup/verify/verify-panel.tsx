/**
 * "Email address" + "Verify": a local syntax check first, then the background (cache or service).
 * A check the background could not send (service unreachable) is kept there and sent when the
 * service is back, also after the popup closed; it is listed as pending until its verdict lands in
 * the recent lookups — or, when the service refused it, listed with why and Retry / Dismiss (and
 * said where its verdict would have shown, when the popup is open as it happens).
 */
import { useEffect, useState } from 'preact/hooks';
import { checkEmail } from '@/lib/shared/address';
import { t } from '@/lib/shared/i18n';
import { type PendingCheckView, sendMessage, type VerdictView } from '@/lib/shared/messages';
import { useAccount } from '../account';
import { useApi, useRecovered } from '../api-status';
import { useAnnounce } from '../live-status';
import { useInterval } from '../use-interval';
import { refusedNamedText } from './kept-checks';
import { RecentLookups } from './recent-lookups';
import { VerdictCard } from './verdict-card';
import { statusText } from './verdict-text';

const RECENT_LIMIT = 5;
/** How often the lists are read again while a kept check waits. */
const PENDING_REFRESH_MS = 2000;
/** How long the verdict of a kept check that was just sent is waited for here. */
const SENT_WAIT_MS = 120_000;

function invalidVerdict(email: string): VerdictView {
  return {
    email,
    status: 'invalid',
    reason: 'invalid_syntax',
    checks: { syntax: false },
    mxHost: null,
    suggestion: null,
    verifiedAt: Date.now(),
    cached: false,
    extra: {},
  };
}

/** A suggestion may be a whole address or just a domain. */
function suggestedAddress(current: string, suggestion: string): string {
  if (suggestion.includes('@')) return suggestion;
  return `${current.slice(0, current.lastIndexOf('@'))}@${suggestion}`;
}

export function VerifyPanel() {
  const call = useApi();
  const announce = useAnnounce();
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const [verdict, setVerdict] = useState<VerdictView | null>(null);
  const [recent, setRecent] = useState<VerdictView[]>([]);
  /** The address just asked whose check the background kept (service unreachable): its verdict is shown once it lands. */
  const [queued, setQueued] = useState<string | null>(null);
  /** When that check left the kept list (sent, its verdict on the way), or null while kept. */
  const [sentAt, setSentAt] = useState<number | null>(null);
  /** Checks the background keeps until the service is back. */
  const [pending, setPending] = useState<PendingCheckView[]>([]);
  /** The check just asked was kept, then refused when it was sent: said in the verdict slot. */
  const [refusedNow, setRefusedNow] = useState<PendingCheckView | null>(null);
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

  const verify = async (raw: string, force = false) => {
    const { email, valid } = checkEmail(raw);
    if (email === '') return;
    if (!valid) {
      setVerdict(invalidVerdict(email));
      announce(t('popup_announce_verdict', email, statusText('invalid')));
      return;
    }
    setBusy(true);
    setVerdict(null);
    setQueued(null);
    setSentAt(null);
    setRefusedNow(null);
    announce(t('popup_verifying', email));
    const outcome = await call.result(
      () => sendMessage('verifyEmail', force ? { email, force } : { email }),
      'verify',
    );
    setBusy(false);
    if (!outcome.ok) {
      // Not sent at all: the background keeps it and sends it when the service answers again.
      if (outcome.error?.kind === 'network') {
        setQueued(email);
        announce(t('popup_verify_queued', email));
        void loadPending();
      } else announce('');
      return;
    }
    const result = outcome.value;
    setVerdict(result);
    announce(t('popup_announce_verdict', result.email, statusText(result.status)));
    void loadRecent();
    if (!result.cached && result.status !== 'invalid') refreshAccount();
  };

  /** Reads both lists; the check just asked, once answered, shows its verdict (or why it was refused). */
  const refreshKept = async (sendNow = false) => {
    const [left, list] = await Promise.all([loadPending(sendNow), loadRecent()]);
    if (!queued || !left) return;
    const kept = left.find((check) => check.email === queued);
    if (kept?.refused) {
      setQueued(null);
      setSentAt(null);
      setRefusedNow(kept);
      // The sentence itself is in the verdict slot; the status line says it briefly.
      announce(t('popup_kept_refused_announce', kept.email));
      return;
    }
    if (kept) return;
    const done = list?.find((item) => item.email === queued);
    if (!done) {
      // Sent: the service is verifying it. Waited for a while, then left to the recent list.
      const since = sentAt ?? Date.now();
      if (sentAt === null) setSentAt(since);
      if (Date.now() - since < SENT_WAIT_MS) return;
    }
    setQueued(null);
    setSentAt(null);
    if (done) {
      setVerdict(done);
      announce(t('popup_announce_verdict', done.email, statusText(done.status)));
      refreshAccount();
    }
  };
  useEffect(() => {
    if (recovered > 0) void refreshKept(true);
  }, [recovered]);
  const waiting = pending.some((check) => !check.refused);
  useInterval(() => void refreshKept(), waiting || queued ? PENDING_REFRESH_MS : null);

  const retryKept = async (check: PendingCheckView) => {
    setRefusedNow(null);
    setVerdict(null);
    setQueued(check.email);
    setSentAt(null);
    await call(() => sendMessage('retryPendingCheck', { email: check.email, mode: check.mode }), 'local');
    void loadPending();
  };
  const dismissKept = async (check: PendingCheckView) => {
    if (refusedNow?.email === check.email) setRefusedNow(null);
    await call(() => sendMessage('dismissPendingCheck', { email: check.email, mode: check.mode }), 'local');
    announce(t('popup_dismissed', check.email));
    void loadPending();
  };

  const onSuggestion = (suggestion: string) => {
    const next = suggestedAddress(verdict?.email ?? input, suggestion);
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
          <button type="submit" class="primary" disabled={busy || input.trim() === ''}>
            {t('popup_verify_button')}
          </button>
        </div>
      </form>
      <div class="verdict-slot">
        {busy && <p class="muted">{t('popup_verifying', checkEmail(input).email)}</p>}
        {queued && sentAt !== null && !busy && <p class="muted">{t('popup_verifying', queued)}</p>}
        {queued && sentAt === null && !busy && (
          <p class="queued" data-testid="verify-queued">
            {t('popup_verify_queued', queued)}
          </p>
        )}
        {refusedNow?.refused && !busy && (
          <p class="form-error refused-now" data-testid="verify-refused">
            {refusedNamedText(refusedNow.email, refusedNow.refused)}
          </p>
        )}
        {verdict && (
          <VerdictCard
            verdict={verdict}
            onSuggestion={onSuggestion}
            onAgain={() => void verify(verdict.email, true)}
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
          setVerdict({ ...item, cached: true });
        }}
      />
    </div>
  );
}
