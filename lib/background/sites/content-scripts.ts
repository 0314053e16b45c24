/**
 * Keeps the content script registered (scripting.registerContentScripts, persisted across
 * restarts) for exactly the enabled sites whose host permission the user granted. Nothing runs
 * on any other page: the script is not in the manifest.
 */
import { browser } from 'wxt/browser';
import { sitePatterns } from '@/lib/shared/site-patterns';
import { getSettings, onEnabledSitesChange } from '@/lib/storage/settings';

export const CONTENT_SCRIPT_ID = 'verimark-marks';
export const CONTENT_SCRIPT_FILE = '/content-scripts/content.js';

/** Patterns of the sites the extension may run on now (permission granted). */
async function grantedPatterns(sites: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const site of sites) {
    const origins = sitePatterns(site);
    if (await browser.permissions.contains({ origins }).catch(() => false)) out.push(...origins);
  }
  return [...new Set(out)];
}

/** Registers, updates or unregisters the content script so that it matches `sites`. */
export async function syncContentScripts(sites: readonly string[]): Promise<string[]> {
  const matches = await grantedPatterns(sites);
  const existing = await browser.scripting.getRegisteredContentScripts({ ids: [CONTENT_SCRIPT_ID] });
  if (matches.length === 0) {
    if (existing.length > 0) await browser.scripting.unregisterContentScripts({ ids: [CONTENT_SCRIPT_ID] });
    return [];
  }
  const script = {
    id: CONTENT_SCRIPT_ID,
    js: [CONTENT_SCRIPT_FILE],
    matches,
    runAt: 'document_idle' as const,
    allFrames: false,
    persistAcrossSessions: true,
  };
  if (existing.length > 0) await browser.scripting.updateContentScripts([script]);
  else await browser.scripting.registerContentScripts([script]);
  return matches;
}

let chain: Promise<unknown> = Promise.resolve();

/** Serializes syncs: a burst of changes never races two registrations. */
export function resync(): Promise<string[]> {
  const next = chain.then(async () => syncContentScripts((await getSettings()).enabledSites));
  chain = next.catch(() => undefined);
  return next;
}

/** Syncs now and whenever the enabled sites or the granted permissions change. */
export function startSiteSync(): void {
  const warn = (err: unknown) => console.warn('[verimark] content script registration', err);
  onEnabledSitesChange(() => void resync().catch(warn));
  browser.permissions.onAdded.addListener(() => void resync().catch(warn));
  browser.permissions.onRemoved.addListener(() => void resync().catch(warn));
  resync().catch(warn);
}
