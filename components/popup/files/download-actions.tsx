/** "Download" (all rows) and "More download options" (subsets) for one completed file. */

import { useApi } from '@/components/popup/api-status';
import { useAnnounce } from '@/components/popup/live-status';
import { t, tn } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { Subset } from '@/lib/shared/views';
import { DownloadMenu } from './download-menu';

export function DownloadActions({ fileId, fileName }: { fileId: string; fileName: string }) {
  const call = useApi();
  const announce = useAnnounce();
  const download = async () => {
    announce(t('popup_download_starting', fileName));
    const result = await call(() => sendMessage('downloadResults', { fileId, fileName }), 'download');
    if (result) announce(t('popup_download_started', fileName));
  };
  const downloadSubset = async (subset: Subset) => {
    const name = t(`popup_subset_${subset}`);
    announce(t('popup_subset_starting', name, fileName));
    const result = await call(() => sendMessage('downloadSubset', { fileId, fileName, subset }), 'download');
    if (result) announce(tn('popup_subset_started', result.rows, name, fileName));
  };
  return (
    <div class="download-actions">
      <button
        type="button"
        class="secondary"
        onClick={() => void download()}
        aria-label={t('popup_download_named', fileName)}
      >
        {t('popup_download')}
      </button>
      <DownloadMenu id={fileId} fileName={fileName} onPick={(subset) => void downloadSubset(subset)} />
    </div>
  );
}
