/**
 * The options' connection fields: the service URL, the API key (the stored key shows only as a
 * fingerprint), and "Use the saved key here" when the key was saved for another address.
 */
import { checkServiceUrl } from '@/lib/api/service-url';
import { t } from '@/lib/shared/i18n';
import type { SettingsView } from '@/lib/shared/views';
import { Field } from './field';

/** The origin of a saved service URL, as the options page names it. */
export function originText(serviceUrl: string): string {
  const check = checkServiceUrl(serviceUrl);
  return check.ok ? check.origin : serviceUrl;
}

export function ConnectionFields({
  view,
  serviceUrl,
  apiKey,
  setServiceUrl,
  setApiKey,
  useKeyHere,
}: {
  view: SettingsView;
  serviceUrl: string;
  apiKey: string;
  setServiceUrl: (value: string) => void;
  setApiKey: (value: string) => void;
  useKeyHere: () => Promise<void>;
}) {
  return (
    <>
      <Field
        id="service-url"
        label={t('options_service_url')}
        name="serviceUrl"
        type="url"
        autoComplete="url"
        value={serviceUrl}
        placeholder="https://verify.example.com"
        aria-describedby="service-url-hint"
        onInput={setServiceUrl}
      />
      <p id="service-url-hint" class="hint">
        {t('options_service_url_hint')}
      </p>

      <Field
        id="api-key"
        label={t('options_api_key')}
        name="apiKey"
        type="password"
        autoComplete="off"
        value={apiKey}
        aria-describedby={view.hasApiKey ? 'api-key-hint' : undefined}
        onInput={setApiKey}
      />
      {view.hasApiKey && (
        <p id="api-key-hint" class="hint" data-testid="key-fingerprint">
          {t('options_api_key_stored_hint', view.apiKeyHint)}
        </p>
      )}
      {view.apiKeyElsewhere !== null && (
        <div class="key-elsewhere" data-testid="key-elsewhere">
          <p class="hint">{t('options_key_elsewhere', view.apiKeyElsewhere, originText(view.serviceUrl))}</p>
          <button type="button" onClick={() => void useKeyHere()}>
            {t('options_key_use_here', originText(view.serviceUrl))}
          </button>
        </div>
      )}
    </>
  );
}
