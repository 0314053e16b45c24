/**
 * The upload form: its choices (upload-fields.tsx), what it costs (upload-cost.tsx), the column
 * sanity check (doubt-check.tsx), and "Upload", enabled only when the upload can go.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PreflightSummary } from '@/lib/csv/preflight';
import { t } from '@/lib/shared/i18n';
import type { AccountView } from '@/lib/shared/views';
import { columnDoubt } from './column-doubt';
import { DoubtCheck } from './doubt-check';
import { columnProblem, UploadCost } from './upload-cost';
import { type UploadChoices, UploadFields } from './upload-fields';

export { columnProblem } from './upload-cost';
export type { UploadChoices } from './upload-fields';

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
  const blocked =
    problem !== null || credits === null || credits === 0 || short !== null || (doubt !== null && !confirmed);
  return (
    <form
      class="upload-form"
      onSubmit={(event) => {
        event.preventDefault();
        onUpload();
      }}
    >
      <UploadFields summary={summary} choices={choices} onChange={onChange} />
      <UploadCost
        problem={problem}
        credits={credits}
        short={short}
        rows={summary.rowCount}
        account={account}
      />
      {doubt && (
        <DoubtCheck
          emailLike={doubt.emailLike}
          sampled={doubt.sampled}
          confirmed={confirmed}
          onConfirm={setConfirmed}
        />
      )}
      <button type="submit" class="primary wide" disabled={busy || blocked}>
        {t('popup_upload_button')}
      </button>
    </form>
  );
}
