/** Every bulk file under the key (from this browser or elsewhere), searchable, a page at a time. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FileList, FileRecord } from '@/lib/api/contract';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { useApi } from '../api-status';
import { useAnnounce } from '../live-status';
import { useDebounced, useInterval } from '../use-interval';
import { FileRow } from './file-row';
import { Pager } from './pager';

export const PAGE_SIZE = 5;
const SEARCH_DEBOUNCE_MS = 300;
const REFRESH_MS = 3000;

export function FilesPanel({ active }: { active: boolean }) {
  const call = useApi();
  const announce = useAnnounce();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [list, setList] = useState<FileList | null>(null);
  const latest = useRef(0);

  const load = async () => {
    const data = { page, pageSize: PAGE_SIZE, ...(query ? { search: query } : {}) };
    const request = ++latest.current;
    const result = await call(() => sendMessage('listFiles', data), 'files');
    // A refresh or an older page/search may answer after a newer one: keep the newest.
    if (result && request === latest.current) setList(result);
  };
  useEffect(() => setPage(1), [query]);
  useEffect(() => {
    if (active) void load();
  }, [active, page, query]);
  useInterval(() => void load(), active ? REFRESH_MS : null);

  const download = async (file: FileRecord) => {
    announce(t('popup_download_starting', file.file_name));
    const result = await call(
      () => sendMessage('downloadResults', { fileId: file._id, fileName: file.file_name }),
      'download',
    );
    if (result) announce(t('popup_download_started', file.file_name));
  };

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
      {list === null ? (
        <p class="muted">{t('popup_loading')}</p>
      ) : list.files.length === 0 ? (
        <p class="muted" data-testid="files-empty">
          {query ? t('popup_files_none_match', query) : t('popup_files_empty')}
        </p>
      ) : (
        <ul class="files" data-testid="files" aria-label={t('popup_files_label')}>
          {list.files.map((file) => (
            <FileRow key={file._id} file={file} onDownload={download} />
          ))}
        </ul>
      )}
      {list && list.totalCount > 0 && (
        <Pager page={list.page} pageSize={list.pageSize} total={list.totalCount} onPage={setPage} />
      )}
    </div>
  );
}
