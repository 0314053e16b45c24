/** "Forget API key" and "Clear cached verdicts": each says what it did in its own status line. */
import { useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { t, tn } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsView } from '@/lib/shared/views';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

type Status = { tone: 'ok' | 'error'; text: string } | null;

export function DataSection({ view, onSaved }: Props) {
  const [status, setStatus] = useState<Status>(null);
  const keyStored = view.hasApiKey || view.apiKeyElsewhere !== null;

  const run = async (action: () => Promise<string>) => {
    try {
      setStatus({ tone: 'ok', text: await action() });
    } catch (err) {
      setStatus({ tone: 'error', text: fromMessageError(err).message });
    }
  };

  const forgetKey = () =>
    run(async () => {
      if (!keyStored) return t('options_no_key');
      onSaved(await sendMessage('forgetApiKey'));
      return t('options_key_forgotten');
    });

  const clearCache = () =>
    run(async () => {
      const { cleared } = await sendMessage('clearVerdictCache');
      return tn('options_cache_cleared', cleared);
    });

  return (
    <section class="card" aria-labelledby="data-heading">
      <h2 id="data-heading">{t('options_data_heading')}</h2>
      <p class="hint">{t('options_data_hint')}</p>
      <div class="actions">
        <button type="button" onClick={() => void forgetKey()} data-testid="forget-key">
          {t('options_forget_key')}
        </button>
        <button type="button" onClick={() => void clearCache()} data-testid="clear-cache">
          {t('options_clear_cache')}
        </button>
      </div>
      <p class={`status ${status?.tone ?? ''}`} role="status" aria-live="polite" data-testid="data-status">
        {status?.text ?? ''}
      </p>
    </section>
  );
}
