/**
 * Page actions for the active tab, where the marking script runs: a summary of its addresses by
 * status, "Verify all on this page" (its label says what it costs; it first grants the tab a
 * one-shot allowance of exactly those addresses, lib/background/verify/page-allowance.ts) and
 * "Export page addresses" as CSV. Nothing is shown on a tab without marks.
 */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { useInterval } from '@/components/popup/use-interval';
import { t, tn } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { sendPageMessage } from '@/lib/shared/page-messages';
import type { PageAddress } from '@/lib/shared/views';
import {
  addressesToVerify,
  pageCsv,
  pageCsvName,
  summaryText,
  toVerify,
  verifyAllLabel,
} from './page-summary';

const REFRESH_MS = 1500;

async function activeTabId(): Promise<number | null> {
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

export function PageActions() {
  const [tabId, setTabId] = useState<number | null>(null);
  const [addresses, setAddresses] = useState<PageAddress[] | null>(null);
  const [note, setNote] = useState('');

  const refresh = async (id: number | null = tabId) => {
    if (id === null) return;
    // Only the top frame's marking script answers; a tab without one throws (nothing to show).
    const list = await sendPageMessage('pageAddresses', undefined, { tabId: id, frameId: 0 }).catch(
      () => null,
    );
    setAddresses(list && list.length > 0 ? list : null);
  };
  useEffect(() => {
    void activeTabId().then((id) => {
      setTabId(id);
      return refresh(id);
    });
  }, []);
  useInterval(() => void refresh(), addresses ? REFRESH_MS : null);

  if (!addresses || tabId === null) return null;
  const credits = toVerify(addresses);
  const onVerifyAll = async () => {
    // The user's confirmed act: the tab may verify exactly these addresses past its per-tab cap.
    await sendMessage('allowPageVerify', { tabId, emails: addressesToVerify(addresses) });
    const { asked } = await sendPageMessage('verifyPage', undefined, { tabId, frameId: 0 });
    setNote(tn('popup_page_asked', asked));
    await refresh();
  };
  const onExport = () => {
    const url = URL.createObjectURL(new Blob([pageCsv(addresses)], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = pageCsvName();
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <section class="page-actions" aria-label={t('popup_page_label')}>
      <p class="page-summary">{summaryText(addresses)}</p>
      <button type="button" disabled={credits === 0} onClick={() => void onVerifyAll()}>
        {verifyAllLabel(credits)}
      </button>
      <button type="button" onClick={onExport}>
        {t('popup_page_export')}
      </button>
      {note && (
        <p class="page-note" role="status">
          {note}
        </p>
      )}
    </section>
  );
}
