/** The upload's choices: "Email column", "Mode" and the file name the service will list. */
import { MODES, type Mode } from '@verimark/contract';
import type { PreflightSummary } from '@/lib/csv/preflight';
import { t } from '@/lib/shared/i18n';

export interface UploadChoices {
  column: number;
  mode: Mode;
  fileName: string;
}

export function UploadFields({
  summary,
  choices,
  onChange,
}: {
  summary: PreflightSummary;
  choices: UploadChoices;
  onChange: (choices: UploadChoices) => void;
}) {
  return (
    <>
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
    </>
  );
}
