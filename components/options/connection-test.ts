/** The text shown for a "Test connection" result. */

import { t } from '@/lib/shared/i18n';
import type { ConnectionResult } from '@/lib/shared/messages';

export function connectionText(result: ConnectionResult): string {
  if (result.ok) return t('options_test_ok');
  const texts: Record<typeof result.kind, string> = {
    invalid_key: t('options_test_invalid_key'),
    key_needed: t('options_test_key_needed'),
    payment_required: t('options_test_payment_required'),
    rate_limited: t('options_test_rate_limited'),
    unreachable: t('options_test_unreachable'),
    bad_url: t('options_test_bad_url'),
    server: t('options_test_server'),
  };
  return `${texts[result.kind]} (${result.message})`;
}
