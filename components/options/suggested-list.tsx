/**
 * Common webmail and CRM sites (components/site-toggle/suggested-sites.ts) as one-click toggle
 * buttons: pressed while the site is enabled. Each click goes straight to `onToggle`, which must
 * ask for the permission before anything else is awaited (the prompt needs the user's gesture).
 */

import { SUGGESTED_SITES } from '@/components/site-toggle/suggested-sites';
import { t } from '@/lib/shared/i18n';

interface Props {
  enabledSites: readonly string[];
  onToggle: (site: string, enabled: boolean) => void;
}

export function SuggestedList({ enabledSites, onToggle }: Props) {
  return (
    <>
      <h3 id="suggested-heading">{t('options_suggested_heading')}</h3>
      <p id="suggested-hint" class="hint">
        {t('options_suggested_hint')}
      </p>
      <ul class="suggested" aria-labelledby="suggested-heading" aria-describedby="suggested-hint">
        {SUGGESTED_SITES.map(({ site, label }) => {
          const enabled = enabledSites.includes(site);
          return (
            <li key={site}>
              <button type="button" aria-pressed={enabled} onClick={() => onToggle(site, enabled)}>
                {t('options_suggested_site', label, site)}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}
