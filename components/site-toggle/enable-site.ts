/**
 * What enabling a site does, for the options page and the popup: ask for the site's host
 * permission (must run straight from the user's click), then save it in the enabled sites; the
 * background registers the content script for it (lib/background/sites/content-scripts.ts).
 */
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { needsPermissionPrompt, siteFromInput, sitePatterns } from '@/lib/shared/site-patterns';

type EnableResult = { ok: true; site: string } | { ok: false; message: string };

/** Call directly from a click handler: the permission prompt needs the user's gesture. */
export async function enableSite(input: string): Promise<EnableResult> {
  const site = siteFromInput(input);
  if (!site) return { ok: false, message: t('site_invalid', input) };
  if (needsPermissionPrompt(site)) {
    const granted = await browser.permissions.request({ origins: sitePatterns(site) });
    if (!granted) {
      return {
        ok: false,
        message: t('site_permission_denied', site),
      };
    }
  }
  const { enabledSites } = await sendMessage('getSettings');
  if (!enabledSites.includes(site))
    await sendMessage('saveSettings', { enabledSites: [...enabledSites, site] });
  return { ok: true, site };
}

/** Removes the site and gives its host permission (the site's own patterns) back. */
export async function disableSite(site: string): Promise<void> {
  const { enabledSites } = await sendMessage('getSettings');
  await sendMessage('saveSettings', { enabledSites: enabledSites.filter((s) => s !== site) });
  if (needsPermissionPrompt(site))
    await browser.permissions.remove({ origins: sitePatterns(site) }).catch(() => false);
}
