/** Plain words for each preflight refusal: what is wrong and how to fix it. */
import type { PreflightError } from '@/lib/csv/preflight';
import { t } from '@/lib/shared/i18n';

export function preflightErrorText(error: PreflightError | 'failed'): string {
  return t(`popup_preflight_${error}`);
}
