/** getSettings / saveSettings / testConnection / contentConfig. The API key itself never leaves the background. */

import { MODES } from '@verimark/contract';
import { badgeWords } from '@/lib/shared/badge-words';
import { siteEnabled } from '@/lib/shared/site-patterns';
import type {
  ConnectionResult,
  ContentConfig,
  Settings,
  SettingsPatch,
  SettingsView,
} from '@/lib/shared/views';
import { createApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { checkServiceUrl } from '../../api/service-url';
import { getApiKey, setApiKey } from '../../storage/api-key';
import { getSettings, normalizeSites, updateSettings } from '../../storage/settings';
import { keyFingerprint, toAccountView } from './account';

export async function getSettingsView(): Promise<SettingsView> {
  const [settings, apiKey] = await Promise.all([getSettings(), getApiKey()]);
  return { ...settings, hasApiKey: apiKey !== '', apiKeyHint: keyFingerprint(apiKey) };
}

const bad = (message: string) => new ApiError('bad_request', message, 400);

function validNumber(value: number, min: number, max: number, name: string): number {
  if (!Number.isFinite(value) || value < min || value > max)
    throw bad(`${name} must be between ${min} and ${max}`);
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
    if (!MODES.includes(patch.defaultMode)) throw bad('Unknown mode');
    next.defaultMode = patch.defaultMode;
  }
  if (patch.cacheTtlHours !== undefined) {
    next.cacheTtlHours = validNumber(patch.cacheTtlHours, 0, 24 * 365, 'Cache lifetime (hours)');
  }
  if (patch.autoVerifyBudget !== undefined) {
    next.autoVerifyBudget = Math.round(validNumber(patch.autoVerifyBudget, 0, 10_000, 'Auto-verify budget'));
  }
  if (patch.enabledSites !== undefined) next.enabledSites = normalizeSites(patch.enabledSites);
  if (patch.sendGuardOffSites !== undefined) {
    if (!Array.isArray(patch.sendGuardOffSites)) throw bad('sendGuardOffSites must be a list of sites');
    next.sendGuardOffSites = normalizeSites(patch.sendGuardOffSites.filter((x) => typeof x === 'string'));
  }
  if (patch.sendGuardRisky !== undefined) {
    if (typeof patch.sendGuardRisky !== 'boolean') throw bad('sendGuardRisky must be true or false');
    next.sendGuardRisky = patch.sendGuardRisky;
  }
  if (patch.apiKey !== undefined) {
    // Visible ASCII only: anything else cannot travel in an HTTP header (and is a paste mistake).
    if (/[^\x21-\x7e]/.test(patch.apiKey.trim()))
      throw bad('The API key contains characters that are not allowed');
    await setApiKey(patch.apiKey);
  }
  await updateSettings(next);
  return getSettingsView();
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
    return { ok: false, kind: 'key_needed', message: 'Type the API key to test a URL that is not saved' };
  const apiKey = typedKey || (await getApiKey());
  if (apiKey === '') return { ok: false, kind: 'invalid_key', message: 'Enter the API key' };
  const client = createApiClient({ baseUrl: check.url, apiKey, timeoutMs: 10_000, retry: { attempts: 1 } });
  try {
    await client.listFiles({ page: 1, pageSize: 1 });
    // The balance is a bonus: a service without `/account` (or a failure here) still passed.
    const account = await client.getAccount().then(toAccountView, () => null);
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
    badgeWords: badgeWords(),
  };
}
