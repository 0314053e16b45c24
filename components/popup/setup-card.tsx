/** Shown instead of the forms until a service URL and an API key are saved. */
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';

export function SetupCard() {
  return (
    <section class="setup card" aria-labelledby="setup-heading" data-testid="setup">
      <h2 id="setup-heading">{t('popup_setup_heading')}</h2>
      <p>{t('popup_setup_text')}</p>
      <button
        type="button"
        class="primary"
        onClick={() => {
          void browser.runtime.openOptionsPage();
        }}
      >
        {t('popup_open_settings')}
      </button>
    </section>
  );
}
