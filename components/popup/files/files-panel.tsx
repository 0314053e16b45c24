/**
 * Every bulk file under the key (from this browser or elsewhere), searchable, a page at a time.
 * A list that cannot be loaded says why, with "Retry", instead of "Loading…" for ever.
 */

import type { FileList } from '@verimark/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApi, useRecovered } from '@/components/popup/api-status';
import { useDebounced, useInterval } from '@/components/popup/use-interval';
import type { ApiError } from '@/lib/api/errors';
import { errorText } from '@/lib/shared/error-text';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { FileRow } from './file-row';
import { Pager } from './pager';

const PAGE_SIZE = 5;
const SEARCH_DEBOUNCE_MS = 300;
const REFRESH_MS = 3000;

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

  const load = async () => {
    const data = { page, pageSize: PAGE_SIZE, ...(query ? { search: query } : {}) };
    const request = ++latest.current;
    setLoading(true);
    const outcome = await call.result(() => sendMessage('listFiles', data), 'files');
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
  useInterval(() => void load(), active && !failure ? REFRESH_MS : null);

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
          {list.files.map((file) => (
            <FileRow key={file._id} file={file} />
          ))}
        </ul>
      )}
      {!failure && list && list.totalCount > 0 && (
        <Pager page={list.page} pageSize={list.pageSize} total={list.totalCount} onPage={setPage} />
      )}
    </div>
  );
}
