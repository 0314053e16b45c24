/**
 * Every bulk file under the key (from this browser or elsewhere), searchable, a page at a time.
 * A list that cannot be loaded says why, with "Retry", instead of "Loading…" for ever. Finished
 * files can be deleted where the service offers it (use-file-deletes.ts).
 */

import type { FileList } from '@verimark/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApi, useRecovered } from '@/components/popup/api-status';
import { useDebounced, useInterval } from '@/components/popup/use-interval';
import type { ApiError } from '@/lib/api/errors';
import { errorText } from '@/lib/shared/error-text';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { DeletedRow } from './file-delete';
import { FileRow } from './file-row';
import { Pager } from './pager';
import { useFileDeletes } from './use-file-deletes';

const PAGE_SIZE = 5;
const SEARCH_DEBOUNCE_MS = 300;
const REFRESH_MS = 3000;
/** While a delete waits: a sent one leaves the list within a second. */
const REFRESH_DELETING_MS = 1000;

export function FilesPanel({
  active,
  query: asked = { text: '', version: 0 },
}: {
  active: boolean;
  /** A search set from elsewhere (an upload's "Show in Files"); each new version applies. */
  query?: { text: string; version: number };
}) {
  const call = useApi();
  const recovered = useRecovered();
  const [search, setSearch] = useState(asked.text);
  const query = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<FileList | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const deletes = useFileDeletes(active, () => void load());

  const load = async () => {
    const data = { page, pageSize: PAGE_SIZE, ...(query ? { search: query } : {}) };
    const request = ++latest.current;
    setLoading(true);
    const outcome = await call.result(() => sendMessage('listFiles', data), 'files');
    await deletes.refresh();
    // A refresh or an older page/search may answer after a newer one: keep the newest.
    if (request !== latest.current) return;
    setLoading(false);
    if (outcome.ok) {
      setList(outcome.value);
      setFailure(null);
    } else if (outcome.error) setFailure(outcome.error);
  };
  useEffect(() => {
    if (asked.version > 0) setSearch(asked.text);
  }, [asked.version]);
  useEffect(() => setPage(1), [query]);
  useEffect(() => {
    if (active) void load();
  }, [active, page, query, recovered]);
  // Refreshes keep going while the list shows; after a failure the service watch takes over.
  useInterval(
    () => void load(),
    active && !failure ? (deletes.waiting ? REFRESH_DELETING_MS : REFRESH_MS) : null,
  );
  const focusOn = (fileId: string, target: 'undo' | 'delete') =>
    deletes.focus?.fileId === fileId && deletes.focus.target === target;

  return (
    <div class="panel-body">
      <div class="field">
        <label for="search-files">{t('popup_search_label')}</label>
        <input
          id="search-files"
          type="search"
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
        />
      </div>
      {failure ? (
        <div class="panel-error" data-testid="files-error">
          <p>{t('popup_files_failed', errorText(failure))}</p>
          <button type="button" class="secondary" disabled={loading} onClick={() => void load()}>
            {t('popup_retry')}
          </button>
        </div>
      ) : list === null ? (
        <p class="muted">{t('popup_loading')}</p>
      ) : list.files.length === 0 ? (
        <p class="muted" data-testid="files-empty">
          {query ? t('popup_files_none_match', query) : t('popup_files_empty')}
        </p>
      ) : (
        <ul class="files" data-testid="files" aria-label={t('popup_files_label')}>
          {list.files.map((file) =>
            deletes.isDeleted(file._id) ? (
              <DeletedRow
                key={file._id}
                fileName={file.file_name}
                focus={focusOn(file._id, 'undo')}
                onUndo={() => void deletes.undo(file)}
              />
            ) : (
              <FileRow
                key={file._id}
                file={file}
                remove={
                  deletes.offered
                    ? { focus: focusOn(file._id, 'delete'), onConfirm: () => void deletes.confirm(file) }
                    : undefined
                }
              />
            ),
          )}
        </ul>
      )}
      {!failure && list && list.totalCount > 0 && (
        <Pager page={list.page} pageSize={list.pageSize} total={list.totalCount} onPage={setPage} />
      )}
    </div>
  );
}
