/**
 * User settings in typed, versioned storage (WXT storage). The API key is NOT here: storage.local
 * is readable by content scripts, so the key lives in extension-origin IndexedDB (api-key.ts).
 */

import { DEFAULT_MODE, MODES } from '@verimark/contract';
import * as v from 'valibot';
import { storage } from 'wxt/utils/storage';
import { siteFromInput } from '@/lib/shared/site-patterns';
import type { Settings } from '@/lib/shared/views';

export const SETTINGS_VERSION = 5;
export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: '',
  defaultMode: DEFAULT_MODE,
  cacheTtlHours: 24 * 7,
  enabledSites: [],
  autoVerifyBudget: 25,
  sendGuardOffSites: [],
  sendGuardRisky: false,
  dailyAutoCap: 200,
  sendersOnSight: false,
};

/** Host names (lowercased, without scheme, port, path or `*.`), valid ones only, without duplicates. */
export function normalizeSites(sites: readonly string[]): string[] {
  const hosts = sites.map(siteFromInput).filter((site): site is string => site !== null);
  return [...new Set(hosts)];
}

/** A list of sites, or one comma-separated string of them (version 1); non-strings are dropped. */
const SitesSchema = v.pipe(
  v.union([v.array(v.unknown()), v.string()]),
  v.transform((sites) => {
    const list = typeof sites === 'string' ? sites.split(',') : sites;
    return normalizeSites(list.filter((site): site is string => typeof site === 'string'));
  }),
);
const count = (min: number) => v.pipe(v.number(), v.finite(), v.minValue(min));

/** Every field checked on its own: a corrupt or missing one takes its default, unknown ones go. */
const SettingsSchema = v.object({
  serviceUrl: v.fallback(v.string(), DEFAULT_SETTINGS.serviceUrl),
  defaultMode: v.fallback(v.picklist(MODES), DEFAULT_SETTINGS.defaultMode),
  cacheTtlHours: v.fallback(count(0), DEFAULT_SETTINGS.cacheTtlHours),
  enabledSites: v.fallback(SitesSchema, []),
  autoVerifyBudget: v.fallback(v.pipe(count(0), v.integer()), DEFAULT_SETTINGS.autoVerifyBudget),
  sendGuardOffSites: v.fallback(SitesSchema, []),
  sendGuardRisky: v.fallback(v.boolean(), DEFAULT_SETTINGS.sendGuardRisky),
  dailyAutoCap: v.fallback(v.pipe(count(0), v.integer()), DEFAULT_SETTINGS.dailyAutoCap),
  sendersOnSight: v.fallback(v.boolean(), DEFAULT_SETTINGS.sendersOnSight),
});

/** Settings from whatever is stored: any version, corrupt, partial, or nothing at all. */
function readSettings(stored: unknown): Settings {
  const record = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? stored : {};
  return v.parse(SettingsSchema, record);
}

/**
 * Version 1 → 2. Version 1 kept the sites as one comma-separated string and had no budget;
 * `readSettings` understands that shape (and tolerates a corrupt one).
 */
export const migrateV1 = (old: unknown): Settings => readSettings(old);

/** Version 2 → 3: the send guard's options, on for every enabled site and not warning for risky. */
export const migrateV2 = (old: unknown): Settings => readSettings(old);

/** Version 3 → 4: the daily cap on credits spent without a click, at its default. */
export const migrateV3 = (old: unknown): Settings => readSettings(old);

/** Version 4 → 5: senders of received webmail wait for a click (`sendersOnSight` off). */
export const migrateV4 = (old: unknown): Settings => readSettings(old);

/** A new item handle (tests create one after seeding old data, so its migration runs). */
export function createSettingsItem() {
  return storage.defineItem<Settings>('local:settings', {
    fallback: DEFAULT_SETTINGS,
    version: SETTINGS_VERSION,
    migrations: { 2: migrateV1, 3: migrateV2, 4: migrateV3, 5: migrateV4 },
  });
}

const settingsItem = createSettingsItem();

export async function getSettings(): Promise<Settings> {
  return readSettings(await settingsItem.getValue());
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
    const sites = readSettings(next).enabledSites;
    const before = readSettings(previous).enabledSites;
    if (sites.join('\n') !== before.join('\n')) listener(sites, before);
  });
}
