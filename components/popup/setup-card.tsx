/**
 * Shown instead of the forms until a service URL and an API key are saved. When the service
 * address changed and the saved key belongs to the previous one, it says so and asks for the key
 * again (the key is sent only to the origin it was saved for, docs/design.md §5).
 */
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';

/** A saved key that belongs to the previous service address (`from`), not the saved one (`to`). */
export interface MovedKey {
  from: string;
  to: string;
}

export function SetupCard({ moved }: { moved?: MovedKey | null }) {
  return (
    <section class="setup card" aria-labelledby="setup-heading" data-testid="setup">
      <h2 id="setup-heading">{t(moved ? 'popup_key_moved_heading' : 'popup_setup_heading')}</h2>
      <p>{moved ? t('popup_key_moved_text', moved.from, moved.to) : t('popup_setup_text')}</p>
      <button
        type="button"
        class="primary"
        onClick={() => {
          void browser.runtime.openOptionsPage();
        }}
      >
        {t(moved ? 'popup_key_moved_button' : 'popup_open_settings')}
      </button>
    </section>
  );
}
