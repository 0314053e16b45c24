/**
 * Enabled sites (host names, as settings keep them: lib/storage/settings.ts) as match patterns for
 * the permission request and the content-script registration. A host covers its subdomains,
 * as contentConfig decides (lib/background/settings/settings-handlers.ts).
 */

import { isTestBuild } from './build';
import { isLoopbackHost } from './loopback';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A host name as a site: lowercased, no scheme, port or path; null when it is not one. */
export function siteFromInput(input: string): string | null {
  const stripped = input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^\*\./, '');
  if (stripped === '' || !/^[a-z0-9.-]+$|^\[[0-9a-f:]+\]$/.test(stripped)) return null;
  return stripped;
}

/** Match patterns for a site: the host and its subdomains, over http and https. */
export function sitePatterns(site: string): string[] {
  if (isLoopbackHost(site)) return [`http://${site}/*`];
  if (IPV4.test(site) || site.startsWith('[')) return [`*://${site}/*`];
  return [`*://*.${site}/*`];
}

/** The site of a page URL (for "Enable on this site"), or null for non-web pages. */
export function siteOfUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return siteFromInput(parsed.hostname);
  } catch {
    return null;
  }
}

/** Whether enabling this site needs a permission prompt (not for loopback in the test build). */
export function needsPermissionPrompt(site: string): boolean {
  return !(isTestBuild() && isLoopbackHost(site));
}

/** The enabled site that covers `host` (the host itself or a parent domain of it), or null. */
export function coveringSite(host: string, sites: readonly string[]): string | null {
  const lower = host.toLowerCase();
  return sites.find((site) => lower === site || lower.endsWith(`.${site}`)) ?? null;
}

/** Whether `host` is one of `sites` or a subdomain of one. */
export function siteEnabled(host: string, sites: readonly string[]): boolean {
  return coveringSite(host, sites) !== null;
}
