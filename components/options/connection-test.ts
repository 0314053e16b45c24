/** The text shown for a "Test connection" result. */

import { t, tn } from '@/lib/shared/i18n';
import type { AccountView, ConnectionResult } from '@/lib/shared/views';

/** " Balance: 1,000 credits." when the service tells it, else ''. */
function balanceText(account: AccountView | null | undefined): string {
  return account ? ` ${tn('options_balance', account.credits)}` : '';
}

export function connectionText(result: ConnectionResult): string {
  if (result.ok) return t('options_test_ok') + balanceText(result.account);
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

/** Save refused: the service rejected the new key. */
export function keyRefusedText(detail: string): string {
  return t('options_key_refused', detail);
}

/** Saved, with what the check of a new key found (its balance, or that it could not be checked). */
export function savedText(check: ConnectionResult | null): string {
  const saved = t('options_saved');
  if (!check) return saved;
  if (check.ok) return saved + balanceText(check.account);
  return `${saved} ${t('options_saved_unchecked', connectionText(check))}`;
}
