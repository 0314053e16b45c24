/** getSettings / saveSettings / testConnection / contentConfig. The API key itself never leaves the background. */

import { MODES, PATHS } from '@verimark/contract';
import { createApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { checkServiceUrl } from '@/lib/api/service-url';
import { badgeWords } from '@/lib/shared/badge-words';
import { t } from '@/lib/shared/i18n';
import { siteEnabled } from '@/lib/shared/site-patterns';
import type {
  ConnectionResult,
  ContentConfig,
  Settings,
  SettingsPatch,
  SettingsView,
} from '@/lib/shared/views';
import { bindApiKey, getApiKeyFor, getSavedKey, originOfUrl, setApiKey } from '@/lib/storage/api-key';
import { markRouteMissing } from '@/lib/storage/missing-routes';
import { getSettings, normalizeSites, updateSettings } from '@/lib/storage/settings';
import { keyFingerprint, toAccountView } from './account';

/**
 * A key counts as there only for the origin it was saved for (docs/design.md §5); one saved for
 * another origin is told by its origin, so the options page can ask for the key again.
 */
export async function getSettingsView(): Promise<SettingsView> {
  const [settings, saved] = await Promise.all([getSettings(), getSavedKey()]);
  const origin = originOfUrl(settings.serviceUrl);
  const usable = saved !== null && (saved.origin === origin || saved.origin === '');
  return {
    ...settings,
    hasApiKey: usable,
    apiKeyHint: usable ? keyFingerprint(saved.key) : '',
    apiKeyElsewhere: saved !== null && !usable ? saved.origin : null,
  };
}

const bad = (message: string) => new ApiError('bad_request', message, 400);

function validNumber(value: number, min: number, max: number, name: string): number {
  if (!Number.isFinite(value) || value < min || value > max)
    throw bad(t('settings_number_range', name, min, max));
  return value;
}

export async function saveSettings(patch: SettingsPatch): Promise<SettingsView> {
  const next: Partial<Settings> = {};
  if (patch.serviceUrl !== undefined) {
    const check = checkServiceUrl(patch.serviceUrl);
    if (patch.serviceUrl.trim() === '') next.serviceUrl = '';
    else if (!check.ok) throw bad(check.message);
    else next.serviceUrl = check.url;
  }
  if (patch.defaultMode !== undefined) {
    if (!MODES.includes(patch.defaultMode)) throw bad(t('settings_unknown_mode'));
    next.defaultMode = patch.defaultMode;
  }
  if (patch.cacheTtlHours !== undefined) {
    next.cacheTtlHours = validNumber(patch.cacheTtlHours, 0, 24 * 365, t('options_cache_ttl'));
  }
  if (patch.autoVerifyBudget !== undefined) {
    next.autoVerifyBudget = Math.round(validNumber(patch.autoVerifyBudget, 0, 10_000, t('options_budget')));
  }
  if (patch.dailyAutoCap !== undefined) {
    next.dailyAutoCap = Math.round(validNumber(patch.dailyAutoCap, 0, 100_000, 'Daily cap'));
  }
  if (patch.enabledSites !== undefined) next.enabledSites = normalizeSites(patch.enabledSites);
  if (patch.sendGuardOffSites !== undefined) {
    if (!Array.isArray(patch.sendGuardOffSites)) throw bad(t('settings_bad_value'));
    next.sendGuardOffSites = normalizeSites(patch.sendGuardOffSites.filter((x) => typeof x === 'string'));
  }
  if (patch.sendGuardRisky !== undefined) {
    if (typeof patch.sendGuardRisky !== 'boolean') throw bad(t('settings_bad_value'));
    next.sendGuardRisky = patch.sendGuardRisky;
  }
  if (patch.sendersOnSight !== undefined) {
    if (typeof patch.sendersOnSight !== 'boolean') throw bad(t('settings_bad_value'));
    next.sendersOnSight = patch.sendersOnSight;
  }
  // Visible ASCII only: anything else cannot travel in an HTTP header (and is a paste mistake).
  if (patch.apiKey !== undefined && /[^\x21-\x7e]/.test(patch.apiKey.trim()))
    throw bad(t('settings_key_characters'));
  const settings = await updateSettings(next);
  const origin = originOfUrl(settings.serviceUrl);
  if (patch.apiKey !== undefined) await setApiKey(patch.apiKey, origin);
  else await keepKeyOrigin(origin, patch.useSavedKeyHere === true);
  return getSettingsView();
}

/**
 * The stored key after the URL changed without a new key: it stays bound to the origin it was
 * saved for, unless the user confirmed using it at the new one. A key saved before any URL
 * (never sent anywhere) takes the first origin.
 */
async function keepKeyOrigin(origin: string, confirmed: boolean): Promise<void> {
  const saved = await getSavedKey();
  if (!saved || origin === '' || saved.origin === origin) return;
  if (confirmed || saved.origin === '') await bindApiKey(origin);
}

/** A free call (the file list, one row) that proves URL, key and subscription; then the balance, where told. */
export async function testConnection(input: {
  serviceUrl?: string;
  apiKey?: string;
}): Promise<ConnectionResult> {
  const saved = (await getSettings()).serviceUrl;
  const check = checkServiceUrl(input.serviceUrl ?? saved);
  if (!check.ok) return { ok: false, kind: 'bad_url', message: check.message };
  const typedKey = input.apiKey?.trim() ?? '';
  // The saved key goes only to the saved URL: a URL typed but not saved is tested only with a
  // key typed beside it, so a mistyped (or planted) URL never receives the saved key.
  if (typedKey === '' && check.url !== saved)
    return { ok: false, kind: 'key_needed', message: t('options_test_key_needed') };
  const apiKey = typedKey || (await getApiKeyFor(check.origin));
  if (apiKey === '') return { ok: false, kind: 'invalid_key', message: t('settings_key_missing') };
  const client = createApiClient({ baseUrl: check.url, apiKey, timeoutMs: 10_000, retry: { attempts: 1 } });
  try {
    await client.listFiles({ page: 1, pageSize: 1 });
    // The balance is a bonus: a service without `/account` (or a failure here) still passed.
    const account = await client.getAccount().then(
      async (data) => {
        // Not there (404): the popup does not ask this service for it until the browser restarts.
        if (data === null) await markRouteMissing(check.origin, PATHS.account);
        return toAccountView(data);
      },
      () => null,
    );
    return { ok: true, account };
  } catch (err) {
    const error = err instanceof ApiError ? err : new ApiError('server', String(err));
    switch (error.kind) {
      case 'invalid_key':
      case 'payment_required':
      case 'rate_limited':
        return { ok: false, kind: error.kind, message: error.message };
      case 'network':
        return { ok: false, kind: 'unreachable', message: error.message };
      default:
        return { ok: false, kind: 'server', message: error.message };
    }
  }
}

export async function contentConfig(senderUrl: string | undefined): Promise<ContentConfig> {
  const settings = await getSettings();
  let host = '';
  try {
    host = senderUrl ? new URL(senderUrl).hostname : '';
  } catch {
    host = '';
  }
  const enabled = host !== '' && siteEnabled(host, settings.enabledSites);
  return {
    enabled,
    autoVerifyBudget: settings.autoVerifyBudget,
    sendGuard: enabled && !siteEnabled(host, settings.sendGuardOffSites),
    sendGuardRisky: settings.sendGuardRisky,
    ...(settings.sendersOnSight ? { sendersOnSight: true } : {}),
    badgeWords: badgeWords(),
  };
}
