/**
 * One bulk file: name, state, date, credits, the breakdown, downloads and a preview once completed;
 * Delete once finished, where the service offers it (file-delete.tsx).
 */

import { FILE_STATES, type FileRecord, type FileState } from '@verimark/contract';
import { useState } from 'preact/hooks';
import { formatDate, formatNumber } from '@/components/popup/format';
import { t } from '@/lib/shared/i18n';
import { CountsBar } from './counts-bar';
import { DownloadActions } from './download-actions';
import { DeleteControl } from './file-delete';
import { ResultsPreview } from './results-preview';

const isFileState = (state: string): state is FileState => (FILE_STATES as readonly string[]).includes(state);

/** Delete on this row: shown only where the service deletes files. */
export interface RowDelete {
  /** Move focus to Delete when the row appears (after an Undo). */
  focus: boolean;
  onConfirm: () => void;
}

export function FileRow({ file, remove }: { file: FileRecord; remove?: RowDelete }) {
  const [previewing, setPreviewing] = useState(false);
  const state = isFileState(file.state) ? t(`popup_state_${file.state}`) : file.state;
  // While processing, the counts grow towards the credits taken: that is the progress.
  const { deliverable, undeliverable, risky, unknown } = file.meta_data;
  const total = file.options.credit_usage;
  const percent =
    file.state === 'processing' && total > 0
      ? Math.min(99, Math.floor(((deliverable + undeliverable + risky + unknown) / total) * 100))
      : null;
  const completed = file.state === 'completed';
  // Processing files are still being paid for and worked on: Delete waits until they finish.
  const deletable = remove !== undefined && (completed || file.state === 'failed');
  const deleteControl = deletable && (
    <DeleteControl fileName={file.file_name} focus={remove.focus} onConfirm={remove.onConfirm} />
  );
  return (
    <li class={`file state-${file.state}`} data-testid="file-row" data-state={file.state}>
      <div class="file-line">
        <span class="file-name">{file.file_name}</span>
        <span class={`pill state-${file.state}`}>
          {percent === null ? state : t('popup_phase_processing_percent', percent)}
        </span>
      </div>
      <p class="file-meta muted">
        {formatDate(file.createdAt)} ·{' '}
        {t(
          'popup_file_credits',
          formatNumber(file.options.credit_usage),
          formatNumber(file.options.credit_refund),
        )}
      </p>
      <CountsBar counts={file.meta_data} />
      {completed && (
        <div class="file-actions">
          <DownloadActions fileId={file._id} fileName={file.file_name} />
          <button
            type="button"
            class="link-button"
            aria-expanded={previewing}
            onClick={() => setPreviewing(!previewing)}
          >
            {previewing ? t('popup_preview_hide') : t('popup_preview_show')}
          </button>
          {deleteControl}
        </div>
      )}
      {completed && previewing && <ResultsPreview fileId={file._id} fileName={file.file_name} />}
      {file.state === 'failed' && <p class="form-error">{t('popup_file_failed')}</p>}
      {file.state === 'failed' && deleteControl && <div class="file-actions">{deleteControl}</div>}
    </li>
  );
}
