/** "Email column", "Mode", file name, the credits the upload will take, and "Upload". */

import { MODES, type Mode } from '@verimark/contract';
import { useEffect, useState } from 'preact/hooks';
import { formatNumber } from '@/components/popup/format';
import type { PreflightSummary } from '@/lib/csv/preflight';
import { t, tn } from '@/lib/shared/i18n';
import type { AccountView } from '@/lib/shared/views';
import { columnDoubt } from './column-doubt';

export interface UploadChoices {
  column: number;
  mode: Mode;
  fileName: string;
}

export function UploadForm({
  summary,
  choices,
  onChange,
  onUpload,
  busy,
  account,
}: {
  summary: PreflightSummary;
  choices: UploadChoices;
  onChange: (choices: UploadChoices) => void;
  onUpload: () => void;
  busy: boolean;
  /** The balance, when the service tells it (undefined while asked, null when it does not). */
  account?: AccountView | null;
}) {
  const credits = choices.column >= 0 ? (summary.nonEmpty[choices.column] ?? 0) : null;
  const problem = columnProblem(summary.headers, choices.column);
  const doubt = problem ? null : columnDoubt(summary, choices.column);
  const [confirmed, setConfirmed] = useState(false);
  // A confirmation is for one column: choosing another asks again.
  useEffect(() => setConfirmed(false), [choices.column]);
  const short = account && credits !== null && credits > account.credits ? account.credits : null;
  return (
    <form
      class="upload-form"
      onSubmit={(event) => {
        event.preventDefault();
        onUpload();
      }}
    >
      <div class="grid-2">
        <div class="field">
          <label for="email-column">{t('popup_email_column_label')}</label>
          <select
            id="email-column"
            value={String(choices.column)}
            onChange={(event) => onChange({ ...choices, column: Number(event.currentTarget.value) })}
          >
            {choices.column < 0 && <option value="-1">{t('popup_email_column_choose')}</option>}
            {summary.headers.map((header, i) => (
              <option key={`${i}-${header}`} value={String(i)}>
                {header || t('popup_column_unnamed', i + 1)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="mode">{t('popup_mode_label')}</label>
          <select
            id="mode"
            value={choices.mode}
            onChange={(event) => onChange({ ...choices, mode: event.currentTarget.value as Mode })}
          >
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`popup_mode_${mode}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div class="field">
        <label for="file-name">{t('popup_file_name_label')}</label>
        <input
          id="file-name"
          type="text"
          value={choices.fileName}
          onInput={(event) => onChange({ ...choices, fileName: event.currentTarget.value })}
        />
      </div>
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
                  formatNumber(summary.rowCount),
                )
              : t('popup_credits', formatNumber(credits), formatNumber(summary.rowCount))}
        </p>
      )}
      {short !== null && credits !== null && (
        <p class="form-error" role="alert" data-testid="credits-short">
          {t('popup_credits_short', formatNumber(credits), formatNumber(short))}
        </p>
      )}
      {doubt && (
        <div class="doubt" data-testid="column-doubt">
          <p role="alert">{tn('popup_column_doubt', doubt.sampled, formatNumber(doubt.emailLike))}</p>
          <label class="check-label">
            <input
              type="checkbox"
              checked={confirmed}
              onChange={(event) => setConfirmed(event.currentTarget.checked)}
            />
            {t('popup_column_doubt_confirm')}
          </label>
        </div>
      )}
      <button
        type="submit"
        class="primary wide"
        disabled={
          busy ||
          problem !== null ||
          credits === null ||
          credits === 0 ||
          short !== null ||
          (doubt !== null && !confirmed)
        }
      >
        {t('popup_upload_button')}
      </button>
    </form>
  );
}

/**
 * Why the chosen column cannot be sent: the service finds the email column by its header name
 * (exact match first), so a column without a name, or with the name of an earlier column, cannot
 * be asked for.
 */
export function columnProblem(headers: readonly string[], column: number): string | null {
  const name = headers[column];
  if (name === undefined) return null;
  if (name === '') return t('popup_column_problem_unnamed', column + 1);
  if (headers.indexOf(name) !== column) return t('popup_column_problem_duplicate', name);
  return null;
}
