/**
 * The Files list's side of Delete: whether the service offers it (asked of the background, which
 * remembers the answer per service), which deletes wait (the background owns them and sends each
 * when its undo window ends, popup open or not), and the person's Delete and Undo, with focus and
 * an announcement for screen readers.
 */
import type { FileRecord } from '@verimark/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useRecovered } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { FileDeleteView } from '@/lib/shared/views';

/** A file deleted from this popup shows as deleted until the list drops it, at most this long. */
const CONFIRMED_KEEP_MS = 30_000;

export interface FileDeletes {
  offered: boolean;
  /** Any delete waiting: the list refreshes more often, so a sent one leaves the list soon. */
  waiting: boolean;
  isDeleted: (fileId: string) => boolean;
  /** Where focus goes on the next render of a row: its Undo, or its Delete after an Undo. */
  focus: { fileId: string; target: 'undo' | 'delete' } | null;
  refresh: () => Promise<void>;
  confirm: (file: FileRecord) => Promise<void>;
  undo: (file: FileRecord) => Promise<void>;
}

const ids = (views: FileDeleteView[]) => new Set(views.map((view) => view.fileId));

export function useFileDeletes(active: boolean, reload: () => void): FileDeletes {
  const announce = useAnnounce();
  const recovered = useRecovered();
  const [offered, setOffered] = useState(false);
  const [waiting, setWaiting] = useState<ReadonlySet<string>>(new Set());
  const [focus, setFocus] = useState<FileDeletes['focus']>(null);
  // Sent by the background already, but maybe still in the last list: kept as deleted a while.
  const confirmed = useRef(new Map<string, number>());

  const askOffered = () =>
    sendMessage('fileDeleteOffered').then(
      (answer) => setOffered(answer.offered),
      () => setOffered(false),
    );
  useEffect(() => {
    if (active) void askOffered();
  }, [active, recovered]);

  const refresh = async () => {
    const now = Date.now();
    for (const [fileId, at] of confirmed.current) {
      if (now - at > CONFIRMED_KEEP_MS) confirmed.current.delete(fileId);
    }
    const views = await sendMessage('fileDeletes').catch(() => null);
    if (views) setWaiting(ids(views));
  };

  const confirm = async (file: FileRecord) => {
    confirmed.current.set(file._id, Date.now());
    setWaiting((previous) => new Set(previous).add(file._id));
    setFocus({ fileId: file._id, target: 'undo' });
    announce(t('popup_file_deleted_announce', file.file_name));
    const views = await sendMessage('deleteFile', { fileId: file._id, fileName: file.file_name }).catch(
      () => null,
    );
    if (views?.some((view) => view.fileId === file._id)) {
      setWaiting(ids(views));
      return;
    }
    // Not taken (the service turned out not to delete, or the background could not be asked).
    confirmed.current.delete(file._id);
    setWaiting(views ? ids(views) : new Set());
    await askOffered();
  };

  const undo = async (file: FileRecord) => {
    confirmed.current.delete(file._id);
    const answer = await sendMessage('undoDeleteFile', { fileId: file._id }).catch(() => null);
    setWaiting((previous) => {
      const next = new Set(previous);
      next.delete(file._id);
      return next;
    });
    setFocus({ fileId: file._id, target: 'delete' });
    // Too late: it was sent. The list shows what the service has.
    if (answer?.undone === false) reload();
  };

  return {
    offered,
    waiting: waiting.size > 0,
    isDeleted: (fileId) => waiting.has(fileId) || confirmed.current.has(fileId),
    focus,
    refresh,
    confirm,
    undo,
  };
}
