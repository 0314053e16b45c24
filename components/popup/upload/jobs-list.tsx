/** Uploads this browser started, newest first, with their progress and what can be done with each. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApi } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { useInterval } from '@/components/popup/use-interval';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { BulkJobView } from '@/lib/shared/views';
import { estimateLeft, type Sample } from './eta';
import { JobRow } from './job-row';

const SHOWN = 5;
const REFRESH_MS = 1000;

export function JobsList({
  version,
  onRetry,
  onShowFile,
}: {
  version: number;
  onRetry: () => void;
  onShowFile?: (fileName: string) => void;
}) {
  const call = useApi();
  const announce = useAnnounce();
  const [jobs, setJobs] = useState<BulkJobView[]>([]);
  const phases = useRef(new Map<string, BulkJobView['phase']>());
  /** Per job: the first and the latest sample of rows done, for the time estimate. */
  const samples = useRef(new Map<string, { first: Sample; last: Sample }>());
  const refresh = async () => {
    const list = await call(() => sendMessage('listJobs'), 'local');
    if (!list) return;
    const shown = [...list].sort((a, b) => b.createdAt - a.createdAt).slice(0, SHOWN);
    const now = Date.now();
    for (const job of shown) {
      const before = phases.current.get(job.id);
      // Say when a file this popup watched finishes (not for ones already finished when it opened).
      if (before && before !== job.phase && (job.phase === 'completed' || job.phase === 'failed')) {
        announce(t('popup_announce_job', job.fileName, t(`popup_phase_${job.phase}`)));
      }
      phases.current.set(job.id, job.phase);
      if (job.phase === 'processing' && job.done != null) {
        const sample = { done: job.done, at: now };
        const seen = samples.current.get(job.id);
        if (!seen) samples.current.set(job.id, { first: sample, last: sample });
        else if (sample.done !== seen.last.done) seen.last = sample;
      }
    }
    setJobs(shown);
  };
  useEffect(() => {
    void refresh();
  }, [version]);
  useInterval(() => void refresh(), REFRESH_MS);

  const dismiss = async (job: BulkJobView) => {
    await call(() => sendMessage('dismissJob', { id: job.id }), 'local');
    announce(t('popup_dismissed', job.fileName));
    void refresh();
  };

  if (jobs.length === 0) return null;
  return (
    <section class="jobs" aria-labelledby="jobs-heading">
      <h2 id="jobs-heading">{t('popup_jobs_heading')}</h2>
      <ul data-testid="jobs">
        {jobs.map((job) => {
          const seen = samples.current.get(job.id);
          const eta = seen && job.total ? estimateLeft(seen.first, seen.last, job.total) : null;
          return (
            <JobRow
              key={job.id}
              job={job}
              etaMs={eta}
              onRetry={onRetry}
              onDismiss={(j) => void dismiss(j)}
              onShowFile={onShowFile}
            />
          );
        })}
      </ul>
    </section>
  );
}
