import { t } from '@/lib/shared/i18n';

/**
 * Which service URLs are accepted: HTTPS, or plain HTTP to loopback only (the key travels in a
 * header and must not cross a network in clear text).
 */
import { isLoopbackHost } from '@/lib/shared/loopback';

type ServiceUrlCheck =
  | { ok: true; url: string; origin: string; loopback: boolean }
  | { ok: false; message: string };

export function checkServiceUrl(input: string): ServiceUrlCheck {
  const trimmed = input.trim();
  if (trimmed === '') return { ok: false, message: t('url_empty') };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: t('url_not_valid') };
  }
  if (url.username || url.password) return { ok: false, message: t('url_credentials') };
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:' && !loopback) {
    return { ok: false, message: t('url_http_loopback_only') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: t('url_https_only') };
  }
  url.search = '';
  url.hash = '';
  const normalized = url.toString().replace(/\/+$/, '');
  return { ok: true, url: normalized, origin: url.origin, loopback };
}

/** The match pattern for a host permission on the service's origin. */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
