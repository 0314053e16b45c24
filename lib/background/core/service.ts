/** The API client for the configured service, or a `not_configured` error. */
import { type ApiClient, createApiClient } from '../../api/client';
import { ApiError } from '../../api/errors';
import { checkServiceUrl } from '../../api/service-url';
import { getApiKey } from '../../storage/api-key';
import { getSettings } from '../../storage/settings';

export async function getClient(): Promise<ApiClient> {
  const [settings, apiKey] = await Promise.all([getSettings(), getApiKey()]);
  const url = checkServiceUrl(settings.serviceUrl);
  if (!url.ok) throw new ApiError('not_configured', 'Set the service URL in the options page');
  if (apiKey === '') throw new ApiError('not_configured', 'Set the API key in the options page');
  return createApiClient({ baseUrl: url.url, apiKey });
}

/** An Error that crosses the message boundary and reads back with `fromMessageError`. */
export function toMessageError(err: unknown): Error {
  if (err instanceof ApiError) return new Error(err.toMessage());
  if (err instanceof Error) return new Error(`[server] ${err.message}`);
  return new Error(`[server] ${String(err)}`);
}
