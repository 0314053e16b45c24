/** Uploads this browser started, with their progress: uploading, queued, processing (percent), completed. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { fromMessageError } from '@/lib/api/errors';
import { t } from '@/lib/shared/i18n';
import { type BulkJobView, sendMessage } from '@/lib/shared/messages';
import { useApi } from '../api-status';
import { errorText } from '../error-text';
import { useAnnounce } from '../live-status';
import { useInterval } from '../use-interval';

const SHOWN = 5;
const REFRESH_MS = 1000;

function phaseText(job: BulkJobView): string {
  if (job.phase === 'processing' && job.progress !== null) {
    return t('popup_phase_processing_percent', Math.floor(job.progress * 100));
  }
  return t(`popup_phase_${job.phase}`);
}

/** A failed job's recorded error text (any text reads back as a `server` error). */
function jobError(error: string): string {
  const parsed = fromMessageError(error);
  return parsed.kind === 'server' || parsed.kind === 'bad_request' ? parsed.message : errorText(parsed);
}

export function JobsList({ version }: { version: number }) {
  const call = useApi();
  const announce = useAnnounce();
  const [jobs, setJobs] = useState<BulkJobView[]>([]);
  const phases = useRef(new Map<string, BulkJobView['phase']>());
  const refresh = async () => {
    const list = await call(() => sendMessage('listJobs'), 'local');
    if (!list) return;
    const shown = [...list].sort((a, b) => b.createdAt - a.createdAt).slice(0, SHOWN);
    for (const job of shown) {
      const before = phases.current.get(job.id);
      // Say when a file this popup watched finishes (not for ones already finished when it opened).
      if (before && before !== job.phase && (job.phase === 'completed' || job.phase === 'failed')) {
        announce(t('popup_announce_job', job.fileName, t(`popup_phase_${job.phase}`)));
      }
      phases.current.set(job.id, job.phase);
    }
    setJobs(shown);
  };
  useEffect(() => {
    void refresh();
  }, [version]);
  useInterval(() => void refresh(), REFRESH_MS);

  if (jobs.length === 0) return null;
  return (
    <section class="jobs" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{t('popup_jobs_heading')}</h2>
      <ul data-testid="jobs">
        {jobs.map((job) => {
          const done = job.phase === 'completed' ? 1 : job.progress;
          return (
            <li key={job.id} class={`job phase-${job.phase}`} data-phase={job.phase}>
              <div class="job-line">
                <span class="job-name">{job.fileName}</span>
                <span class="job-phase">{phaseText(job)}</span>
              </div>
              {job.phase !== 'failed' && (
                <progress
                  max={1}
                  value={done ?? undefined}
                  aria-label={t('popup_job_progress_label', job.fileName)}
                />
              )}
              {job.error && <p class="form-error">{jobError(job.error)}</p>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
