/**
 * What the upload will cost, under the choices: the credits (and the balance, when the service
 * tells it), or why the chosen column cannot be sent, and whether the balance falls short.
 */
import { findEmailColumn } from '@verimark/contract/email-column';
import { formatNumber } from '@/components/popup/format';
import { t } from '@/lib/shared/i18n';
import type { AccountView } from '@/lib/shared/views';

export function UploadCost({
  problem,
  credits,
  short,
  rows,
  account,
}: {
  problem: string | null;
  /** Credits the chosen column takes, or null while none is chosen. */
  credits: number | null;
  /** The balance when it is below `credits`, else null. */
  short: number | null;
  rows: number;
  account?: AccountView | null;
}) {
  return (
    <>
      {problem ? (
        <p class="form-error" role="alert" data-testid="column-problem">
          {problem}
        </p>
      ) : (
        <p class="credits" data-testid="credits">
          {credits === null
            ? t('popup_credits_choose_column')
            : account
              ? t(
                  'popup_credits_balance',
                  formatNumber(credits),
                  formatNumber(account.credits),
                  formatNumber(rows),
                )
              : t('popup_credits', formatNumber(credits), formatNumber(rows))}
        </p>
      )}
      {short !== null && credits !== null && (
        <p class="form-error" role="alert" data-testid="credits-short">
          {t('popup_credits_short', formatNumber(credits), formatNumber(short))}
        </p>
      )}
    </>
  );
}

/**
 * Why the chosen column cannot be sent: the service finds the email column by its header name
 * with the shared rule (@verimark/contract/email-column), so a column without a name, or one the
 * rule would not pick by its name (an earlier column of the same name), cannot be asked for.
 */
export function columnProblem(headers: readonly string[], column: number): string | null {
  const name = headers[column];
  if (name === undefined) return null;
  if (name.trim() === '') return t('popup_column_problem_unnamed', column + 1);
  if (findEmailColumn(headers, name) !== column) return t('popup_column_problem_duplicate', name);
  return null;
}
