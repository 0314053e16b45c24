/** The API client for the configured service, or a `not_configured` error. */

import type { Settings } from '@/lib/shared/views';
import { type ApiClient, createApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { checkServiceUrl } from '../../api/service-url';
import { getApiKey } from '../../storage/api-key';
import { getSettings } from '../../storage/settings';

/** `settings`: already read by the caller (one read per request), else read here. */
export async function getClient(known?: Settings): Promise<ApiClient> {
  const [settings, apiKey] = await Promise.all([known ?? getSettings(), getApiKey()]);
  const url = checkServiceUrl(settings.serviceUrl);
  if (!url.ok) throw new ApiError('not_configured', 'Set the service URL in the options page');
  if (apiKey === '') throw new ApiError('not_configured', 'Set the API key in the options page');
  return createApiClient({ baseUrl: url.url, apiKey });
}
