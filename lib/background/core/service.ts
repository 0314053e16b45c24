/** The API client for the configured service, or a `not_configured` error. */

import { type ApiClient, createApiClient } from '@/lib/api/client';
import { ApiError } from '@/lib/api/errors';
import { checkServiceUrl } from '@/lib/api/service-url';
import { t } from '@/lib/shared/i18n';
import type { Settings } from '@/lib/shared/views';
import { getSavedKey } from '@/lib/storage/api-key';
import { getSettings } from '@/lib/storage/settings';

/**
 * The key goes only to the origin it was saved for: the client refuses any other (lib/api/http.ts).
 * `settings`: already read by the caller (one read per request), else read here.
 */
export async function getClient(known?: Settings): Promise<ApiClient> {
  const [settings, saved] = await Promise.all([known ?? getSettings(), getSavedKey()]);
  const url = checkServiceUrl(settings.serviceUrl);
  if (!url.ok) throw new ApiError('not_configured', t('bg_no_service_url'));
  if (!saved) throw new ApiError('not_configured', t('bg_no_api_key'));
  if (saved.origin !== url.origin) throw new ApiError('not_configured', t('bg_key_other_origin'));
  return createApiClient({ baseUrl: url.url, apiKey: saved.key, keyOrigin: saved.origin });
}
