/** The API client for the configured service, or a `not_configured` error. */
import { type ApiClient, createApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { checkServiceUrl } from '../../api/service-url';
import { getSavedKey } from '../../storage/api-key';
import { getSettings } from '../../storage/settings';

/** The key goes only to the origin it was saved for: the client refuses any other (lib/api/http.ts). */
export async function getClient(): Promise<ApiClient> {
  const [settings, saved] = await Promise.all([getSettings(), getSavedKey()]);
  const url = checkServiceUrl(settings.serviceUrl);
  if (!url.ok) throw new ApiError('not_configured', 'Set the service URL in the options page');
  if (!saved) throw new ApiError('not_configured', 'Set the API key in the options page');
  if (saved.origin !== url.origin)
    throw new ApiError(
      'not_configured',
      'The API key was saved for another service: enter it in the options page',
    );
  return createApiClient({ baseUrl: url.url, apiKey: saved.key, keyOrigin: saved.origin });
}
