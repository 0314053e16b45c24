/**
 * "Email address" + "Verify": a local syntax check first, then the background (cache or service).
 * A check the background could not send (service unreachable) is kept there and sent when the
 * service is back, also after the popup closed; it is listed as pending until its verdict lands in
 * the recent lookups — or, when the service refused it, listed with why and Retry / Dismiss (and
 * said where its verdict would have shown, when the popup is open as it happens).
 */

import { checkEmail } from '@verimark/contract/address';
import { useState } from 'preact/hooks';
import { useAccount } from '@/components/popup/account';
import { useApi } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { t } from '@/lib/shared/i18n';
import { invalidVerdict } from '@/lib/shared/local-verdict';
import { sendMessage } from '@/lib/shared/messages';
import type { VerdictView } from '@/lib/shared/views';
import { RecentLookups } from './recent-lookups';
import { useKeptFollowUp } from './use-kept-follow-up';
import { useLookupLists } from './use-lookup-lists';
import { EMPTY, type Slot, VerdictSlot } from './verdict-slot';
import { statusText } from './verdict-text';
import { VerifyForm } from './verify-form';

/** A suggestion may be a whole address or just a domain. */
function suggestedAddress(current: string, suggestion: string): string {
  if (suggestion.includes('@')) return suggestion;
  return `${current.slice(0, current.lastIndexOf('@'))}@${suggestion}`;
}

export function VerifyPanel() {
  const call = useApi();
  const announce = useAnnounce();
  const [input, setInput] = useState('');
  const [slot, setSlot] = useState<Slot>(EMPTY);
  const { refresh: refreshAccount } = useAccount();
  const lists = useLookupLists(call);
  const { recent, pending, loadRecent, loadPending } = lists;

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

  const { retryKept, dismissKept } = useKeptFollowUp({ slot, setSlot, lists, call, refreshAccount });

  const onSuggestion = (suggestion: string) => {
    const next = suggestedAddress(slot.kind === 'verdict' ? slot.verdict.email : input, suggestion);
    setInput(next);
    void verify(next);
  };

  return (
    <div class="panel-body">
      <VerifyForm
        value={input}
        busy={slot.kind === 'busy'}
        onInput={setInput}
        onSubmit={() => void verify(input)}
      />
      <VerdictSlot slot={slot} onSuggestion={onSuggestion} onAgain={(email) => void verify(email, true)} />
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
