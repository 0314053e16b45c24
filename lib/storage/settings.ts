/**
 * User settings in typed, versioned storage (WXT storage). The API key is NOT here: storage.local
 * is readable by content scripts, so the key lives in extension-origin IndexedDB (api-key.ts).
 */
import { storage } from 'wxt/utils/storage';
import { DEFAULT_MODE, MODES, type Mode } from '../api/contract';

export interface Settings {
  serviceUrl: string;
  defaultMode: Mode;
  /** Lifetime of a definitive verdict in the cache. */
  cacheTtlHours: number;
  /** Host names where the content script marks addresses (e.g. `crm.example.com`). */
  enabledSites: string[];
  /** Addresses the content script may verify automatically per page. */
  autoVerifyBudget: number;
}

/** Version 1: the first shape, with sites as one comma-separated string and no budget. */
export interface SettingsV1 {
  serviceUrl: string;
  defaultMode: string;
  cacheTtlHours: number;
  enabledSites: string;
}

export const SETTINGS_VERSION = 2;
export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: '',
  defaultMode: DEFAULT_MODE,
  cacheTtlHours: 24 * 7,
  enabledSites: [],
  autoVerifyBudget: 25,
};

/** Lowercased host names without scheme, path or duplicates. */
export function normalizeSites(sites: readonly string[]): string[] {
  const hosts = sites
    .map((site) => site.trim().toLowerCase())
    .map((site) => site.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, ''))
    .map((site) => site.replace(/:\d+$/, ''))
    .filter((site) => site !== '');
  return [...new Set(hosts)];
}

export function migrateV1(old: SettingsV1): Settings {
  const mode = (MODES as readonly string[]).includes(old.defaultMode)
    ? (old.defaultMode as Mode)
    : DEFAULT_MODE;
  return {
    serviceUrl: old.serviceUrl ?? '',
    defaultMode: mode,
    cacheTtlHours: old.cacheTtlHours ?? DEFAULT_SETTINGS.cacheTtlHours,
    enabledSites: normalizeSites((old.enabledSites ?? '').split(',')),
    autoVerifyBudget: DEFAULT_SETTINGS.autoVerifyBudget,
  };
}

/** A new item handle (tests create one after seeding old data, so its migration runs). */
export function createSettingsItem() {
  return storage.defineItem<Settings>('local:settings', {
    fallback: DEFAULT_SETTINGS,
    version: SETTINGS_VERSION,
    migrations: { 2: migrateV1 },
  });
}

export const settingsItem = createSettingsItem();

export async function getSettings(): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await settingsItem.getValue()) };
}

export async function updateSettings(patch: Partial<Settings>): Promise<Settings> {
  const next = { ...(await getSettings()), ...patch };
  await settingsItem.setValue(next);
  return next;
}

/**
 * Hook for runtime content-script registration (issue 5): called with the enabled sites
 * whenever they change.
 */
export function onEnabledSitesChange(listener: (sites: string[], previous: string[]) => void): () => void {
  return settingsItem.watch((next, previous) => {
    const sites = next?.enabledSites ?? [];
    const before = previous?.enabledSites ?? [];
    if (sites.join('\n') !== before.join('\n')) listener(sites, before);
  });
}
