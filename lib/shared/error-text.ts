/** Plain words for an API error kind, the same in the banner and in the upload list. */

import { t } from '@/lib/shared/i18n';
import type { ApiErrorKind } from '@/lib/shared/views';

/** Reads only the error's kind and message (a refusal kept in storage has them too). */
export function errorText(
  error: { kind: ApiErrorKind; message: string },
  retryIn: number | null = null,
): string {
  switch (error.kind) {
    case 'invalid_key':
      return t('popup_error_invalid_key');
    case 'not_configured':
      return t('popup_error_not_configured');
    case 'payment_required':
      return t('popup_error_payment_required');
    case 'rate_limited':
      return retryIn === null ? t('popup_error_rate_limited_plain') : t('popup_error_rate_limited', retryIn);
    case 'network':
      return t('popup_error_offline');
    case 'too_large':
      return t('popup_preflight_too_large');
    default:
      return t('popup_error_other', error.message);
  }
}
