/** One bulk file: name, state, date, counts, credits, and "Download" once completed. */
import { FILE_STATES, type FileRecord, type FileState } from '@/lib/api/contract';
import { t } from '@/lib/shared/i18n';
import { formatDate, formatNumber } from '../format';
import { CountsBar } from './counts-bar';

const isFileState = (state: string): state is FileState => (FILE_STATES as readonly string[]).includes(state);

export function FileRow({ file, onDownload }: { file: FileRecord; onDownload: (file: FileRecord) => void }) {
  const state = isFileState(file.state) ? t(`popup_state_${file.state}`) : file.state;
  // While processing, the counts grow towards the credits taken: that is the progress.
  const { deliverable, undeliverable, risky, unknown } = file.meta_data;
  const total = file.options.credit_usage;
  const percent =
    file.state === 'processing' && total > 0
      ? Math.min(99, Math.floor(((deliverable + undeliverable + risky + unknown) / total) * 100))
      : null;
  return (
    <li class={`file state-${file.state}`} data-testid="file-row" data-state={file.state}>
      <div class="file-line">
        <span class="file-name">{file.file_name}</span>
        <span class={`pill state-${file.state}`}>
          {percent === null ? state : t('popup_phase_processing_percent', percent)}
        </span>
      </div>
      <div class="file-line">
        <span class="file-meta muted">
          {formatDate(file.createdAt)}
          <br />
          {t(
            'popup_file_credits',
            formatNumber(file.options.credit_usage),
            formatNumber(file.options.credit_refund),
          )}
        </span>
        {file.state === 'completed' && (
          <button
            type="button"
            class="secondary"
            onClick={() => onDownload(file)}
            aria-label={t('popup_download_named', file.file_name)}
          >
            {t('popup_download')}
          </button>
        )}
      </div>
      <CountsBar counts={file.meta_data} />
      {file.state === 'failed' && <p class="form-error">{t('popup_file_failed')}</p>}
    </li>
  );
}
