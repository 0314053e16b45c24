/** "1–5 of 12" with Previous and Next. */

import { formatNumber } from '@/components/popup/format';
import { t } from '@/lib/shared/i18n';

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav class="pager" aria-label={t('popup_pages_label')}>
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('popup_previous')}
      </button>
      <span data-testid="page-range">
        {t('popup_page_range', formatNumber(first), formatNumber(last), formatNumber(total))}
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('popup_next')}
      </button>
    </nav>
  );
}
