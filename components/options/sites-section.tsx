/**
 * The sites where addresses are marked. Adding a site asks for its host permission (a user
 * gesture) and saves it (components/site-toggle/enable-site.ts, shared with the popup); the
 * content script is registered at runtime from `enabledSites` (onEnabledSitesChange in
 * lib/storage/settings.ts is the hook).
 */
import { useState } from 'preact/hooks';
import { disableSite, enableSite } from '@/components/site-toggle/enable-site';
import { fromMessageError } from '@/lib/api/errors';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsView } from '@/lib/shared/views';
import { SuggestedList } from './suggested-list';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

export function SitesSection({ view, onSaved }: Props) {
  const [site, setSite] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');

  /** Runs a change, then shows the saved sites; the change's text goes to the alert or the status line. */
  const run = async (work: () => Promise<{ error: string } | { note: string }>) => {
    try {
      const outcome = await work();
      setError('error' in outcome ? outcome.error : null);
      setNote('note' in outcome ? outcome.note : '');
      onSaved(await sendMessage('getSettings'));
    } catch (err) {
      setNote('');
      setError(fromMessageError(err).message);
    }
  };

  // enableSite asks for the permission first thing: it must run straight from the click.
  const enable = (input: string, onEnabled?: () => void) => {
    const pending = enableSite(input);
    void run(async () => {
      const result = await pending;
      if (!result.ok) return { error: result.message };
      onEnabled?.();
      return { note: t('site_toggle_on', result.site) };
    });
  };

  const add = (event: Event) => {
    event.preventDefault();
    if (site.trim() !== '') enable(site, () => setSite(''));
  };

  const remove = (host: string) =>
    void run(async () => {
      await disableSite(host);
      return { note: t('site_toggle_off', host) };
    });

  const toggle = (host: string, enabled: boolean) => (enabled ? remove(host) : enable(host));

  return (
    <section class="card" aria-labelledby="sites-heading">
      <h2 id="sites-heading">{t('options_sites_heading')}</h2>
      <p class="hint">{t('options_sites_hint')}</p>
      {view.enabledSites.length === 0 ? (
        <p>{t('options_sites_empty')}</p>
      ) : (
        <ul class="sites" aria-labelledby="sites-heading">
          {view.enabledSites.map((host) => (
            <li key={host}>
              <span>{host}</span>
              <button type="button" onClick={() => remove(host)}>
                {t('options_site_remove', host)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="site-add" onSubmit={add}>
        <label for="site-add">{t('options_site_add_label')}</label>
        <input
          id="site-add"
          type="text"
          value={site}
          placeholder="crm.example.com"
          onInput={(e) => setSite(e.currentTarget.value)}
        />
        <button type="submit">{t('options_site_add')}</button>
      </form>
      <SuggestedList enabledSites={view.enabledSites} onToggle={toggle} />
      <p class="status ok" role="status" aria-live="polite">
        {note}
      </p>
      {error && (
        <p class="status error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
