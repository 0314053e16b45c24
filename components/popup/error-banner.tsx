/** The popup-wide banner for the last failed call: what happened, in words, what to do, and "Retry". */
import { browser } from 'wxt/browser';
import { errorText } from '@/lib/shared/error-text';
import { t } from '@/lib/shared/i18n';
import { useApiContext } from './api-status';

function openOptions() {
  void browser.runtime.openOptionsPage();
}

export function ErrorBanner() {
  const { status, checkNow } = useApiContext();
  const { error, retryIn } = status;
  if (!error) return null;
  const needsSettings = error.kind === 'invalid_key' || error.kind === 'not_configured';
  const text = errorText(error, retryIn);
  return (
    <div class={`banner banner-${error.kind}`} role="alert" data-error-kind={error.kind}>
      <p>{text}</p>
      <div class="banner-actions">
        {error.kind !== 'rate_limited' && (
          <button type="button" class="link-button" onClick={() => void checkNow()}>
            {t('popup_retry')}
          </button>
        )}
        {needsSettings && (
          <button type="button" class="link-button" onClick={openOptions}>
            {t('popup_open_settings')}
          </button>
        )}
      </div>
    </div>
  );
}
