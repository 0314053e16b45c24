/** "Email address" and "Verify": the form alone; what a submit does is the panel's (verify-panel.tsx). */
import { t } from '@/lib/shared/i18n';

export function VerifyForm({
  value,
  busy,
  onInput,
  onSubmit,
}: {
  value: string;
  /** A check is on its way: Verify waits. */
  busy: boolean;
  onInput: (value: string) => void;
  onSubmit: () => void;
}) {
  return (
    <form
      class="verify-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
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
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy || value.trim() === ''}>
          {t('popup_verify_button')}
        </button>
      </div>
    </form>
  );
}
