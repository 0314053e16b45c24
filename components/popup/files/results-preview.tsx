/** The first rows of a completed file's results, each address with its verdict as a chip. */

import { VERDICTS, type Verdict } from '@verimark/contract';
import { useEffect, useState } from 'preact/hooks';
import { useApi } from '@/components/popup/api-status';
import { reasonText } from '@/components/popup/verify/verdict-text';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { ResultPreview } from '@/lib/shared/views';

const ROWS = 5;
const isVerdict = (status: string): status is Verdict => (VERDICTS as readonly string[]).includes(status);

export function ResultsPreview({ fileId, fileName }: { fileId: string; fileName: string }) {
  const call = useApi();
  const [preview, setPreview] = useState<ResultPreview | null | 'failed'>(null);
  useEffect(() => {
    void call(() => sendMessage('previewResults', { fileId, limit: ROWS }), 'preview').then((result) =>
      setPreview(result ?? 'failed'),
    );
  }, [fileId]);
  if (preview === null) return <p class="muted">{t('popup_loading')}</p>;
  if (preview === 'failed') return <p class="muted">{t('popup_preview_failed')}</p>;
  return (
    <table
      class="results-preview"
      data-testid="results-preview"
      aria-label={t('popup_results_preview_label', fileName)}
    >
      <thead>
        <tr>
          <th scope="col">{t('popup_preview_address')}</th>
          <th scope="col">{t('popup_preview_verdict')}</th>
        </tr>
      </thead>
      <tbody>
        {preview.rows.map((row, i) => (
          <tr key={i}>
            <td class="preview-email">{row.email}</td>
            <td>
              <span
                class={`chip status-${isVerdict(row.status) ? row.status : 'unknown'}`}
                title={row.reason ? reasonText(row.reason) : undefined}
              >
                {isVerdict(row.status) ? t(`popup_status_${row.status}`) : row.status || '—'}
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
