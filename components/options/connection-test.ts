/** The text shown for a "Test connection" result. */

import { msg } from '@/lib/shared/i18n';
import type { ConnectionResult } from '@/lib/shared/messages';

export function connectionText(result: ConnectionResult): string {
  if (result.ok) return msg('options_test_ok', 'Connection OK: the service accepted the key.');
  const texts: Record<typeof result.kind, string> = {
    invalid_key: msg('options_test_invalid_key', 'Invalid key: the service refused the API key.'),
    payment_required: msg(
      'options_test_payment_required',
      'Payment required: the subscription has expired or there are no credits.',
    ),
    rate_limited: msg(
      'options_test_rate_limited',
      'Rate limited: the service asks to slow down. Try again in a moment.',
    ),
    unreachable: msg('options_test_unreachable', 'Unreachable: the service could not be reached.'),
    bad_url: msg('options_test_bad_url', 'The service URL is not valid.'),
    server: msg('options_test_server', 'The service answered with an error.'),
  };
  return `${texts[result.kind]} (${result.message})`;
}
