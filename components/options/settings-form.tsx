/**
 * The options' settings form: its fields (connection-fields.tsx, verification-fields.tsx), "Save"
 * and "Test connection" (what they do: settings-actions.ts) and the status line under them.
 */

import { useState } from 'preact/hooks';
import { t } from '@/lib/shared/i18n';
import type { SettingsView } from '@/lib/shared/views';
import { ConnectionFields } from './connection-fields';
import { useSettingsActions } from './settings-actions';
import { VerificationFields, type VerificationValues } from './verification-fields';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

export function SettingsForm({ view, onSaved }: Props) {
  const [serviceUrl, setServiceUrl] = useState(view.serviceUrl);
  const [apiKey, setApiKey] = useState('');
  const [values, setValues] = useState<VerificationValues>({
    mode: view.defaultMode,
    ttl: String(view.cacheTtlHours),
    budget: String(view.autoVerifyBudget),
    dailyCap: String(view.dailyAutoCap),
  });
  const { status, save, test, useKeyHere } = useSettingsActions({
    serviceUrl,
    apiKey,
    values,
    setServiceUrl,
    setApiKey,
    onSaved,
  });

  return (
    <form class="card" onSubmit={save} noValidate>
      <h2>{t('options_connection_heading')}</h2>
      <ConnectionFields
        view={view}
        serviceUrl={serviceUrl}
        apiKey={apiKey}
        setServiceUrl={setServiceUrl}
        setApiKey={setApiKey}
        useKeyHere={useKeyHere}
      />
      <h2>{t('options_verification_heading')}</h2>
      <VerificationFields
        values={values}
        onChange={(change) => setValues((now) => ({ ...now, ...change }))}
      />
      <div class="actions">
        <button type="submit">{t('options_save')}</button>
        <button type="button" onClick={test}>
          {t('options_test')}
        </button>
      </div>
      <p class={`status ${status?.tone ?? ''}`} role="status" aria-live="polite" data-testid="options-status">
        {status?.text ?? ''}
      </p>
    </form>
  );
}
