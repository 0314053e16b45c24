/**
 * What the settings form's buttons do: "Save" (a new key is tried first; one the service refuses
 * is stored only when Save is pressed again), "Test connection", "Use the saved key here"; and
 * the status line they write.
 */
import { useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { checkServiceUrl } from '@/lib/api/service-url';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { SettingsPatch, SettingsView } from '@/lib/shared/views';
import { originText } from './connection-fields';
import { connectionText, keyRefusedText, savedText } from './connection-test';
import { requestServiceOrigin } from './permissions';
import { budgetLabel, dailyCapLabel, ttlLabel, type VerificationValues } from './verification-fields';

export type Status = { tone: 'ok' | 'error' | 'busy'; text: string } | null;

export function useSettingsActions({
  serviceUrl,
  apiKey,
  values,
  setServiceUrl,
  setApiKey,
  onSaved,
}: {
  serviceUrl: string;
  apiKey: string;
  values: VerificationValues;
  setServiceUrl: (value: string) => void;
  setApiKey: (value: string) => void;
  onSaved: (view: SettingsView) => void;
}) {
  const { mode, ttl, budget, dailyCap } = values;
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

  return { status, save, test, useKeyHere };
}
