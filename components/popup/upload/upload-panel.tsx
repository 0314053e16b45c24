/**
 * Choose a CSV, preflight it in a worker, confirm the column and mode, then hand it to the
 * background. The file is staged in IndexedDB while the preflight runs, so "Upload" only sends a
 * message naming it and the background uploads from there: the popup may close at any moment
 * after the click. A file dropped in favour of another is deleted; one left when the popup
 * closes is swept by the background later.
 */

import { DEFAULT_MODE, MAX_UPLOAD_BYTES, type Mode } from '@verimark/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useAccount } from '@/components/popup/account';
import { useApi } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import type { PreflightError, PreflightSummary } from '@/lib/csv/preflight';
import { runPreflight } from '@/lib/csv/run-preflight';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { deleteUploadBlob, stageUpload } from '@/lib/storage/upload-blobs';
import { CsvPreview } from './csv-preview';
import { FileDrop } from './file-drop';
import { JobsList } from './jobs-list';
import { preflightErrorText } from './preflight-text';
import { columnProblem } from './upload-cost';
import type { UploadChoices } from './upload-fields';
import { UploadForm } from './upload-form';

type Stage =
  | { kind: 'idle' }
  | { kind: 'checking'; file: File }
  | { kind: 'refused'; file: File; error: PreflightError | 'failed' }
  | { kind: 'ready'; file: File; summary: PreflightSummary };

export function UploadPanel({ onShowFile }: { onShowFile?: (fileName: string) => void }) {
  const call = useApi();
  const { account, refresh: refreshAccount } = useAccount();
  const announce = useAnnounce();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [defaultMode, setDefaultMode] = useState<Mode>(DEFAULT_MODE);
  const [choices, setChoices] = useState<UploadChoices>({ column: -1, mode: DEFAULT_MODE, fileName: '' });
  const [busy, setBusy] = useState(false);
  const [jobsVersion, setJobsVersion] = useState(0);
  const chosen = useRef<File | null>(null);
  /** The chosen file's staging in IndexedDB (its key), until the background takes it. */
  const staged = useRef<{ file: File; key: Promise<string> } | null>(null);

  const dropStaged = () => {
    const previous = staged.current;
    staged.current = null;
    previous?.key.then(deleteUploadBlob).catch(() => undefined);
  };

  /** The key `file` was staged under while the preflight ran; staged now if it was not, or failed then. */
  const stagedKey = async (file: File): Promise<string> => {
    const earlier = staged.current?.file === file ? await staged.current.key.catch(() => null) : null;
    if (earlier) return earlier;
    const key = stageUpload(file);
    staged.current = { file, key };
    return key;
  };

  useEffect(() => {
    void call(() => sendMessage('getSettings'), 'local').then((settings) => {
      if (settings) setDefaultMode(settings.defaultMode);
    });
  }, []);

  const onFile = async (file: File) => {
    chosen.current = file;
    dropStaged();
    // A file over the limit is refused by the preflight: not worth copying.
    if (file.size <= MAX_UPLOAD_BYTES) {
      const key = stageUpload(file);
      key.catch(() => undefined); // reported when "Upload" awaits it
      staged.current = { file, key };
    }
    setStage({ kind: 'checking', file });
    announce(t('popup_preflight_checking', file.name));
    let result: Awaited<ReturnType<typeof runPreflight>> | { ok: false; error: 'failed' };
    try {
      result = await runPreflight(file);
    } catch {
      result = { ok: false, error: 'failed' };
    }
    // Another file was chosen while this one was checked.
    if (chosen.current !== file) return;
    if (!result.ok) {
      dropStaged();
      setStage({ kind: 'refused', file, error: result.error });
      announce(preflightErrorText(result.error));
      return;
    }
    setStage({ kind: 'ready', file, summary: result });
    setChoices({ column: result.emailColumn, mode: defaultMode, fileName: file.name });
    announce(columnProblem(result.headers, result.emailColumn) ?? t('popup_preflight_ready', file.name));
  };

  const upload = async () => {
    if (stage.kind !== 'ready') return;
    const emailColumn = stage.summary.headers[choices.column];
    if (emailColumn === undefined) return;
    setBusy(true);
    const job = await call(async () => {
      const blobKey = await stagedKey(stage.file);
      const started = await sendMessage('startBulkUpload', {
        blobKey,
        fileName: choices.fileName.trim() || stage.file.name,
        emailColumn,
        mode: choices.mode,
      });
      // The background owns the file now (it deletes it after the upload).
      staged.current = null;
      return started;
    }, 'upload');
    setBusy(false);
    if (!job) return;
    setStage({ kind: 'idle' });
    setJobsVersion((v) => v + 1);
    announce(t('popup_upload_started', job.fileName));
    refreshAccount();
  };

  /** "Retry" on a failed upload: the file must be chosen again (the browser keeps no path to it). */
  const chooseAgain = () => {
    const input = document.querySelector<HTMLInputElement>('#csv-file');
    input?.focus();
    input?.scrollIntoView({ block: 'nearest' });
    input?.click();
  };

  return (
    <div class="panel-body">
      <FileDrop key={jobsVersion} onFile={onFile} />
      {stage.kind === 'checking' && <p class="muted">{t('popup_preflight_checking', stage.file.name)}</p>}
      {stage.kind === 'refused' && (
        <p class="form-error" role="alert" data-testid="preflight-error" data-error={stage.error}>
          {preflightErrorText(stage.error)}
        </p>
      )}
      {stage.kind === 'ready' && (
        <>
          <CsvPreview headers={stage.summary.headers} rows={stage.summary.preview} column={choices.column} />
          <UploadForm
            summary={stage.summary}
            choices={choices}
            onChange={setChoices}
            onUpload={upload}
            busy={busy}
            account={account}
          />
        </>
      )}
      <JobsList version={jobsVersion} onRetry={chooseAgain} onShowFile={onShowFile} />
    </div>
  );
}
