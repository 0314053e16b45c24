/**
 * The slot under the verify form: nothing, a check on its way, its verdict, a check the
 * background kept (service unreachable; `sentAt` once it was sent and its verdict is on the way),
 * or that kept check refused when it was sent. One at a time.
 */
import { t } from '@/lib/shared/i18n';
import type { PendingCheckView, VerdictView } from '@/lib/shared/views';
import { refusedNamedText } from './kept-checks';
import { VerdictCard } from './verdict-card';

export type Slot =
  | { kind: 'empty' }
  | { kind: 'busy'; email: string }
  | { kind: 'verdict'; verdict: VerdictView }
  | { kind: 'kept'; email: string; sentAt: number | null }
  | { kind: 'refused'; check: PendingCheckView & { refused: NonNullable<PendingCheckView['refused']> } };

export const EMPTY: Slot = { kind: 'empty' };

export function VerdictSlot({
  slot,
  onSuggestion,
  onAgain,
}: {
  slot: Slot;
  onSuggestion: (suggestion: string) => void;
  /** "Verify again" on a verdict: asks the service, not the cache. */
  onAgain: (email: string) => void;
}) {
  return (
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
          onAgain={() => onAgain(slot.verdict.email)}
        />
      )}
    </div>
  );
}
