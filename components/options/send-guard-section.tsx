/**
 * The send guard's options (docs/design.md §5): on or off per enabled site (on by default where
 * marking is on), and "Also warn for risky recipients" (off by default); and whether senders of
 * received mail are verified on sight (off by default: they wait for a click). Each change is saved at once.
 */
import { useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsPatch, SettingsView } from '@/lib/shared/views';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

export function SendGuardSection({ view, onSaved }: Props) {
  const [error, setError] = useState<string | null>(null);
  const save = (patch: SettingsPatch) =>
    sendMessage('saveSettings', patch).then(
      (saved) => {
        setError(null);
        onSaved(saved);
      },
      (err: unknown) => setError(fromMessageError(err).message),
    );
  const toggleSite = (host: string, on: boolean) => {
    const off = view.sendGuardOffSites.filter((site) => site !== host);
    void save({ sendGuardOffSites: on ? off : [...off, host] });
  };

  return (
    <section class="card" aria-labelledby="guard-heading">
      <h2 id="guard-heading">{t('options_guard_heading')}</h2>
      <p class="hint">{t('options_guard_hint')}</p>
      {view.enabledSites.length === 0 ? (
        <p>{t('options_guard_none')}</p>
      ) : (
        <ul class="guard-sites">
          {view.enabledSites.map((host) => (
            <li key={host}>
              <label>
                <input
                  type="checkbox"
                  checked={!view.sendGuardOffSites.includes(host)}
                  onChange={(e) => toggleSite(host, e.currentTarget.checked)}
                />{' '}
                {t('options_guard_site', host)}
              </label>
            </li>
          ))}
        </ul>
      )}
      <label>
        <input
          type="checkbox"
          checked={view.sendGuardRisky}
          onChange={(e) => void save({ sendGuardRisky: e.currentTarget.checked })}
        />{' '}
        {t('options_guard_risky')}
      </label>
      <label>
        <input
          type="checkbox"
          checked={view.sendersOnSight}
          aria-describedby="senders-hint"
          onChange={(e) => void save({ sendersOnSight: e.currentTarget.checked })}
        />{' '}
        {t('options_senders_on_sight')}
      </label>
      <p class="hint" id="senders-hint">
        {t('options_senders_on_sight_hint')}
      </p>
      {error && (
        <p class="status error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
