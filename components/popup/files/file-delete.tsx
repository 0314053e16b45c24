/**
 * Delete on a file row: the button, its confirmation (Escape or "Cancel" goes back) and, once
 * confirmed, "Deleted — Undo" while the background holds the delete back (lib/background/bulk/
 * file-delete.ts). Keyboard first: focus moves to the question's safe answer, to Undo after
 * "Delete file", and back to Delete after Cancel or Undo.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/shared/i18n';

/** "Delete", then the question with "Delete file" and "Cancel". */
export function DeleteControl({
  fileName,
  focus,
  onConfirm,
}: {
  fileName: string;
  /** Focus the Delete button when it appears (after an Undo). */
  focus: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(focus);
  useEffect(() => {
    if (asking) cancelButton.current?.focus();
    else if (returnFocus.current) deleteButton.current?.focus();
    returnFocus.current = false;
  }, [asking]);
  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };
  if (!asking) {
    return (
      <button
        ref={deleteButton}
        type="button"
        class="link-button danger"
        aria-label={t('popup_file_delete_named', fileName)}
        data-testid="file-delete"
        onClick={() => setAsking(true)}
      >
        {t('popup_file_delete')}
      </button>
    );
  }
  return (
    <fieldset
      class="delete-question"
      data-testid="file-delete-question"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          cancel();
        }
      }}
    >
      <legend>{t('popup_file_delete_question', fileName)}</legend>
      <div class="delete-answers">
        <button type="button" class="danger-button" data-testid="file-delete-confirm" onClick={onConfirm}>
          {t('popup_file_delete_confirm')}
        </button>
        <button ref={cancelButton} type="button" class="secondary" onClick={cancel}>
          {t('popup_file_delete_cancel')}
        </button>
      </div>
    </fieldset>
  );
}

/** The row of a file whose delete waits: its name, "Deleted — Undo". */
export function DeletedRow({
  fileName,
  focus,
  onUndo,
}: {
  fileName: string;
  focus: boolean;
  onUndo: () => void;
}) {
  const undoButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focus) undoButton.current?.focus();
  }, []);
  return (
    <li class="file deleted" data-testid="file-row" data-state="deleted">
      <div class="file-line">
        <span class="file-name">{fileName}</span>
        <span class="deleted-undo">
          {t('popup_file_deleted')} —{' '}
          <button
            ref={undoButton}
            type="button"
            class="link-button"
            aria-label={t('popup_file_undo_named', fileName)}
            data-testid="file-undo"
            onClick={onUndo}
          >
            {t('popup_file_undo')}
          </button>
        </span>
      </div>
    </li>
  );
}
