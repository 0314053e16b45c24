/** The API client for the configured service, or a `not_configured` error. */

import { t } from '@/lib/shared/i18n';
import { type ApiClient, createApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { checkServiceUrl } from '../../api/service-url';
import { getApiKey } from '../../storage/api-key';
import { getSettings } from '../../storage/settings';

export async function getClient(): Promise<ApiClient> {
  const [settings, apiKey] = await Promise.all([getSettings(), getApiKey()]);
  const url = checkServiceUrl(settings.serviceUrl);
  if (!url.ok) throw new ApiError('not_configured', t('bg_no_service_url'));
  if (apiKey === '') throw new ApiError('not_configured', t('bg_no_api_key'));
  return createApiClient({ baseUrl: url.url, apiKey });
}
