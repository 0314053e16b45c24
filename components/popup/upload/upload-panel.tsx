/**
 * Choose a CSV, preflight it in a worker, confirm the column and mode, then hand it to the
 * background: the file is stored in IndexedDB and uploaded from there, so the popup may close.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { DEFAULT_MODE, type Mode } from '@/lib/api/contract';
import type { PreflightError, PreflightSummary } from '@/lib/csv/preflight';
import { runPreflight } from '@/lib/csv/run-preflight';
import { sendMessage } from '@/lib/messages';
import { putUploadBlob } from '@/lib/storage/upload-blobs';
import { useApi } from '../api-status';
import { t } from '../i18n';
import { useAnnounce } from '../live-status';
import { CsvPreview } from './csv-preview';
import { FileDrop } from './file-drop';
import { JobsList } from './jobs-list';
import { preflightErrorText } from './preflight-text';
import { type UploadChoices, UploadForm } from './upload-form';

type Stage =
  | { kind: 'idle' }
  | { kind: 'checking'; file: File }
  | { kind: 'refused'; file: File; error: PreflightError | 'failed' }
  | { kind: 'ready'; file: File; summary: PreflightSummary };

export function UploadPanel() {
  const call = useApi();
  const announce = useAnnounce();
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [defaultMode, setDefaultMode] = useState<Mode>(DEFAULT_MODE);
  const [choices, setChoices] = useState<UploadChoices>({ column: -1, mode: DEFAULT_MODE, fileName: '' });
  const [busy, setBusy] = useState(false);
  const [jobsVersion, setJobsVersion] = useState(0);
  const chosen = useRef<File | null>(null);

  useEffect(() => {
    void call(() => sendMessage('getSettings'), 'local').then((settings) => {
      if (settings) setDefaultMode(settings.defaultMode);
    });
  }, []);

  const onFile = async (file: File) => {
    chosen.current = file;
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
      setStage({ kind: 'refused', file, error: result.error });
      announce(preflightErrorText(result.error));
      return;
    }
    setStage({ kind: 'ready', file, summary: result });
    setChoices({ column: result.emailColumn, mode: defaultMode, fileName: file.name });
    announce(t('popup_preflight_ready', file.name));
  };

  const upload = async () => {
    if (stage.kind !== 'ready') return;
    const emailColumn = stage.summary.headers[choices.column];
    if (emailColumn === undefined) return;
    setBusy(true);
    const blobKey = `upload:${crypto.randomUUID()}`;
    const job = await call(async () => {
      await putUploadBlob(blobKey, stage.file);
      return sendMessage('startBulkUpload', {
        blobKey,
        fileName: choices.fileName.trim() || stage.file.name,
        emailColumn,
        mode: choices.mode,
      });
    }, 'upload');
    setBusy(false);
    if (!job) return;
    setStage({ kind: 'idle' });
    setJobsVersion((v) => v + 1);
    announce(t('popup_upload_started', job.fileName));
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
          />
        </>
      )}
      <JobsList version={jobsVersion} />
    </div>
  );
}
