/**
 * One upload this browser started. Running: phase, "N of M rows", time left and a bar. Completed:
 * the breakdown, "Download", "More download options" and a link to it in Files. Failed: why, in
 * words that wrap, "Retry" (choose the file again) and "Dismiss".
 */

import type { FileRecord } from '@verimark/contract';
import { useEffect, useState } from 'preact/hooks';
import { useApi } from '@/components/popup/api-status';
import { CountsBar } from '@/components/popup/files/counts-bar';
import { DownloadActions } from '@/components/popup/files/download-actions';
import { formatNumber } from '@/components/popup/format';
import { RetryDismiss } from '@/components/popup/retry-dismiss';
import { ApiError } from '@/lib/api/errors';
import { errorText } from '@/lib/shared/error-text';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { BulkJobView } from '@/lib/shared/views';
import { formatDuration } from './eta';

function phaseText(job: BulkJobView): string {
  if (job.phase === 'processing' && job.progress !== null) {
    return t('popup_phase_processing_percent', Math.floor(job.progress * 100));
  }
  return t(`popup_phase_${job.phase}`);
}

/** A failed job's error in words: the kind's own sentence when known, else the recorded text. */
function jobError(job: BulkJobView): string {
  const kind = job.errorKind;
  const detail = job.error ?? '';
  if (!kind || kind === 'server' || kind === 'bad_request') return detail;
  const sentence = errorText(new ApiError(kind, detail));
  // The service's own words (e.g. "Insufficient credits") say which of the kind's causes it was.
  return detail && !sentence.includes(detail) ? `${sentence} (${detail})` : sentence;
}

interface JobRowProps {
  job: BulkJobView;
  /** Milliseconds left, when the rate so far tells. */
  etaMs: number | null;
  onRetry: () => void;
  onDismiss: (job: BulkJobView) => void;
  onShowFile?: (fileName: string) => void;
}

export function JobRow({ job, etaMs, onRetry, onDismiss, onShowFile }: JobRowProps) {
  const call = useApi();
  const [record, setRecord] = useState<FileRecord | null>(null);
  const fileId = job.fileId;
  useEffect(() => {
    if (job.phase !== 'completed' || !fileId) return;
    void call(() => sendMessage('getFile', { fileId, fileName: job.fileName }), 'files').then((found) => {
      if (found) setRecord(found);
    });
  }, [job.phase, fileId]);

  const done = job.phase === 'completed' ? 1 : job.progress;
  const rows =
    job.done != null && job.total
      ? t('popup_job_rows', formatNumber(job.done), formatNumber(job.total))
      : null;
  return (
    <li class={`job phase-${job.phase}`} data-phase={job.phase}>
      <div class="job-line">
        <span class="job-name">{job.fileName}</span>
        <span class="job-phase">{phaseText(job)}</span>
      </div>
      {(job.phase === 'queued' || job.phase === 'processing' || job.phase === 'uploading') && (
        <>
          <progress
            max={1}
            value={done ?? undefined}
            aria-label={t('popup_job_progress_label', job.fileName)}
          />
          {(rows || etaMs !== null) && (
            <p class="job-rows" data-testid="job-rows">
              {rows}
              {rows && etaMs !== null && ' · '}
              {etaMs !== null && t('popup_job_eta', formatDuration(etaMs))}
            </p>
          )}
        </>
      )}
      {job.phase === 'completed' && fileId && (
        <>
          {record && <CountsBar counts={record.meta_data} />}
          <div class="file-actions">
            <DownloadActions fileId={fileId} fileName={job.fileName} />
            {onShowFile && (
              <button type="button" class="link-button" onClick={() => onShowFile(job.fileName)}>
                {t('popup_show_in_files')}
              </button>
            )}
          </div>
        </>
      )}
      {job.error && <p class="form-error job-error">{jobError(job)}</p>}
      {job.phase === 'failed' && (
        <RetryDismiss name={job.fileName} onRetry={onRetry} onDismiss={() => onDismiss(job)} />
      )}
    </li>
  );
}
