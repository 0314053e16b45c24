/** The options page: settings form and enabled sites. */
import { useEffect, useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsView } from '@/lib/shared/views';
import { DataSection } from './data-section';
import { SendGuardSection } from './send-guard-section';
import { SettingsForm } from './settings-form';
import { SitesSection } from './sites-section';

export function OptionsApp() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    sendMessage('getSettings').then(setView, (err: unknown) => setError(fromMessageError(err).message));
  }, []);

  return (
    <main>
      <h1>{t('options_title')}</h1>
      {error && <p role="alert">{error}</p>}
      {view && (
        <>
          <SettingsForm view={view} onSaved={setView} />
          <SitesSection view={view} onSaved={setView} />
          <SendGuardSection view={view} onSaved={setView} />
          <DataSection view={view} onSaved={setView} />
        </>
      )}
    </main>
  );
}
