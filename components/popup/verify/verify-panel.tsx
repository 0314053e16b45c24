/** "Email address" + "Verify": a local syntax check first, then the background (cache or service). */
import { useEffect, useState } from 'preact/hooks';
import { checkEmail } from '@/lib/shared/address';
import { t } from '@/lib/shared/i18n';
import { sendMessage, type VerdictView } from '@/lib/shared/messages';
import { useAccount } from '../account';
import { useApi, useRecovered } from '../api-status';
import { useAnnounce } from '../live-status';
import { RecentLookups } from './recent-lookups';
import { VerdictCard } from './verdict-card';
import { statusText } from './verdict-text';

const RECENT_LIMIT = 5;

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
  /** An address whose check could not be sent (service unreachable): sent when the service is back. */
  const [queued, setQueued] = useState<string | null>(null);
  const recovered = useRecovered();
  const { refresh: refreshAccount } = useAccount();

  const loadRecent = async () => {
    const list = await call(() => sendMessage('recentLookups', { limit: RECENT_LIMIT }), 'local');
    if (list) setRecent(list);
  };
  useEffect(() => {
    void loadRecent();
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
    announce(t('popup_verifying', email));
    const outcome = await call.result(
      () => sendMessage('verifyEmail', force ? { email, force } : { email }),
      'verify',
    );
    setBusy(false);
    if (!outcome.ok) {
      // Not sent at all: kept, and sent as soon as the service answers again (while the popup is open).
      if (outcome.error?.kind === 'network') {
        setQueued(email);
        announce(t('popup_verify_queued', email));
      } else announce('');
      return;
    }
    const result = outcome.value;
    setVerdict(result);
    announce(t('popup_announce_verdict', result.email, statusText(result.status)));
    void loadRecent();
    if (!result.cached && result.status !== 'invalid') refreshAccount();
  };

  useEffect(() => {
    if (recovered > 0 && queued) void verify(queued);
  }, [recovered]);

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
        {queued && !busy && (
          <p class="queued" data-testid="verify-queued">
            {t('popup_verify_queued', queued)}
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
        lookups={recent}
        onSelect={(item) => {
          setInput(item.email);
          setVerdict({ ...item, cached: true });
        }}
      />
    </div>
  );
}
