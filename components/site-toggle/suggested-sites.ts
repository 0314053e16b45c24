/** Webmail and CRM sites the options page offers to enable with one click (host names, as settings keep them). */
import { t } from '@/lib/shared/i18n';

interface SuggestedSite {
  site: string;
  label: string;
}

export const SUGGESTED_SITES: readonly SuggestedSite[] = [
  { site: 'mail.google.com', label: 'Gmail' },
  {
    site: 'outlook.office.com',
    // Product names stay as they are; this one's qualifier is in the UI language.
    get label() {
      return t('options_site_outlook_work');
    },
  },
  { site: 'outlook.live.com', label: 'Outlook.com' },
  { site: 'mail.yahoo.com', label: 'Yahoo Mail' },
  { site: 'app.fastmail.com', label: 'Fastmail' },
  { site: 'mail.proton.me', label: 'Proton Mail' },
  { site: 'app.hubspot.com', label: 'HubSpot' },
  { site: 'lightning.force.com', label: 'Salesforce Lightning' },
  { site: 'crm.zoho.com', label: 'Zoho CRM' },
  { site: 'app.pipedrive.com', label: 'Pipedrive' },
  { site: 'linkedin.com', label: 'LinkedIn' },
];
