/**
 * "Retry" and "Dismiss" for one item that did not go through (a failed upload, a kept check the
 * service refused): the popup's one pair, each button named for screen readers with the item it
 * acts on ("Retry leads.csv", "Dismiss leads.csv").
 */
import { t } from '@/lib/shared/i18n';

export function RetryDismiss({
  name,
  onRetry,
  onDismiss,
}: {
  /** What the buttons act on: a file name or an address. */
  name: string;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  return (
    <div class="file-actions">
      <button type="button" class="secondary" onClick={onRetry} aria-label={t('popup_retry_named', name)}>
        {t('popup_retry')}
      </button>
      <button type="button" class="secondary" onClick={onDismiss} aria-label={t('popup_dismiss_named', name)}>
        {t('popup_dismiss')}
      </button>
    </div>
  );
}
