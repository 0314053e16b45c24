/** Service URL, API key, default mode, cache lifetime and budget, with "Save" and "Test connection". */

import { MODES, type Mode } from '@verimark/contract';
import { useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { checkServiceUrl } from '@/lib/api/service-url';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsPatch, SettingsView } from '@/lib/shared/views';
import { connectionText, keyRefusedText, savedText } from './connection-test';
import { Field } from './field';
import { requestServiceOrigin } from './permissions';

interface Props {
  view: SettingsView;
  onSaved: (view: SettingsView) => void;
}

type Status = { tone: 'ok' | 'error' | 'busy'; text: string } | null;

const ttlLabel = t('options_cache_ttl');
const budgetLabel = t('options_budget');
const dailyCapLabel = t('options_daily_cap');

/** The origin of a saved service URL, as the options page names it. */
function originText(serviceUrl: string): string {
  const check = checkServiceUrl(serviceUrl);
  return check.ok ? check.origin : serviceUrl;
}

export function SettingsForm({ view, onSaved }: Props) {
  const [serviceUrl, setServiceUrl] = useState(view.serviceUrl);
  const [apiKey, setApiKey] = useState('');
  const [mode, setMode] = useState<Mode>(view.defaultMode);
  const [ttl, setTtl] = useState(String(view.cacheTtlHours));
  const [budget, setBudget] = useState(String(view.autoVerifyBudget));
  const [dailyCap, setDailyCap] = useState(String(view.dailyAutoCap));
  const [status, setStatus] = useState<Status>(null);
  /** A key the service refused on Save: pressing Save again with it stores it anyway. */
  const [refusedKey, setRefusedKey] = useState<string | null>(null);

  /** Checks the URL and asks for its origin; must run first in a click handler (user gesture). */
  const prepareUrl = async (): Promise<boolean> => {
    if (serviceUrl.trim() === '') return true;
    const check = checkServiceUrl(serviceUrl);
    if (!check.ok) {
      setStatus({ tone: 'error', text: check.message });
      return false;
    }
    if (!(await requestServiceOrigin(check.origin))) {
      setStatus({
        tone: 'error',
        text: t('options_permission_denied', check.origin),
      });
      return false;
    }
    return true;
  };

  /** A number field's value, or null (with the reason shown) when it is empty or not a number. */
  const numberIn = (value: string, label: string): number | null => {
    const number = value.trim() === '' ? Number.NaN : Number(value);
    if (Number.isFinite(number)) return number;
    setStatus({ tone: 'error', text: t('options_number_needed', label) });
    return null;
  };

  const save = async (event: Event) => {
    event.preventDefault();
    // Checked before anything is awaited: the permission request below needs the click's gesture.
    const cacheTtlHours = numberIn(ttl, ttlLabel);
    const autoVerifyBudget = cacheTtlHours === null ? null : numberIn(budget, budgetLabel);
    const dailyAutoCap = autoVerifyBudget === null ? null : numberIn(dailyCap, dailyCapLabel);
    if (cacheTtlHours === null || autoVerifyBudget === null || dailyAutoCap === null) return;
    if (!(await prepareUrl())) return;
    const patch: SettingsPatch = {
      serviceUrl,
      defaultMode: mode,
      cacheTtlHours,
      autoVerifyBudget,
      dailyAutoCap,
    };
    if (apiKey.trim() !== '') patch.apiKey = apiKey;
    try {
      // A new key is tried first: one the service refuses is stored only when Save is pressed again.
      const confirmed = patch.apiKey !== undefined && patch.apiKey === refusedKey;
      const check =
        patch.apiKey && serviceUrl.trim() && !confirmed
          ? await sendMessage('testConnection', { serviceUrl, apiKey })
          : null;
      if (check && !check.ok && check.kind === 'invalid_key') {
        setRefusedKey(patch.apiKey ?? null);
        setStatus({ tone: 'error', text: keyRefusedText(check.message) });
        return;
      }
      setRefusedKey(null);
      const saved = await sendMessage('saveSettings', patch);
      setApiKey('');
      setServiceUrl(saved.serviceUrl);
      onSaved(saved);
      setStatus({ tone: 'ok', text: savedText(check) });
    } catch (err) {
      setStatus({ tone: 'error', text: fromMessageError(err).message });
    }
  };

  /** The stored key was saved for another origin: the user confirms sending it to this one. */
  const useKeyHere = async () => {
    try {
      const saved = await sendMessage('saveSettings', { useSavedKeyHere: true });
      onSaved(saved);
      setStatus({ tone: 'ok', text: t('options_key_used_here', originText(saved.serviceUrl)) });
    } catch (err) {
      setStatus({ tone: 'error', text: fromMessageError(err).message });
    }
  };

  const test = async () => {
    if (!(await prepareUrl())) return;
    setStatus({ tone: 'busy', text: t('options_testing') });
    try {
      const input = { serviceUrl, ...(apiKey.trim() ? { apiKey } : {}) };
      const result = await sendMessage('testConnection', input);
      setStatus({ tone: result.ok ? 'ok' : 'error', text: connectionText(result) });
    } catch (err) {
      setStatus({ tone: 'error', text: fromMessageError(err).message });
    }
  };

  return (
    <form class="card" onSubmit={save} noValidate>
      <h2>{t('options_connection_heading')}</h2>
      <Field
        id="service-url"
        label={t('options_service_url')}
        name="serviceUrl"
        type="url"
        autoComplete="url"
        value={serviceUrl}
        placeholder="https://verify.example.com"
        aria-describedby="service-url-hint"
        onInput={setServiceUrl}
      />
      <p id="service-url-hint" class="hint">
        {t('options_service_url_hint')}
      </p>

      <Field
        id="api-key"
        label={t('options_api_key')}
        name="apiKey"
        type="password"
        autoComplete="off"
        value={apiKey}
        aria-describedby={view.hasApiKey ? 'api-key-hint' : undefined}
        onInput={setApiKey}
      />
      {view.hasApiKey && (
        <p id="api-key-hint" class="hint" data-testid="key-fingerprint">
          {t('options_api_key_stored_hint', view.apiKeyHint)}
        </p>
      )}
      {view.apiKeyElsewhere !== null && (
        <div class="key-elsewhere" data-testid="key-elsewhere">
          <p class="hint">{t('options_key_elsewhere', view.apiKeyElsewhere, originText(view.serviceUrl))}</p>
          <button type="button" onClick={() => void useKeyHere()}>
            {t('options_key_use_here', originText(view.serviceUrl))}
          </button>
        </div>
      )}

      <h2>{t('options_verification_heading')}</h2>
      <label for="default-mode">{t('options_default_mode')}</label>
      <select id="default-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as Mode)}>
        {MODES.map((value) => (
          <option key={value} value={value}>
            {t(`options_mode_${value}`)}
          </option>
        ))}
      </select>
      <Field id="cache-ttl" label={ttlLabel} type="number" min={0} max={8760} value={ttl} onInput={setTtl} />
      <Field
        id="budget"
        label={budgetLabel}
        type="number"
        min={0}
        max={10_000}
        value={budget}
        onInput={setBudget}
      />
      <Field
        id="daily-cap"
        label={dailyCapLabel}
        type="number"
        min={0}
        max={100_000}
        value={dailyCap}
        aria-describedby="daily-cap-hint"
        onInput={setDailyCap}
      />
      <p id="daily-cap-hint" class="hint">
        {t('options_daily_cap_hint')}
      </p>

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
