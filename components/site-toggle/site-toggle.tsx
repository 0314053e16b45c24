/**
 * Popup control: "Enable on this site" (permission + registration) and a one-shot "Check this page"
 * (activeTab + scripting.executeScript), for the active tab.
 */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { coveringSite, siteOfUrl } from '@/lib/shared/site-patterns';
import { disableSite, enableSite } from './enable-site';

interface ActiveTab {
  id: number;
  site: string | null;
}

export function SiteToggle() {
  const [tab, setTab] = useState<ActiveTab | null>(null);
  /** The enabled site covering the tab's host (itself or a parent domain), or null. */
  const [covering, setCovering] = useState<string | null>(null);
  const [note, setNote] = useState('');

  useEffect(() => {
    void (async () => {
      const [active] = await browser.tabs.query({ active: true, currentWindow: true });
      if (active?.id === undefined) return;
      const site = siteOfUrl(active.url);
      setTab({ id: active.id, site });
      const settings = await sendMessage('getSettings');
      setCovering(site === null ? null : coveringSite(site, settings.enabledSites));
    })().catch((err: unknown) => setNote(String(err)));
  }, []);

  if (!tab) return null;
  const onToggle = async () => {
    if (!tab.site) return;
    if (covering) {
      await disableSite(covering);
      setCovering(null);
      setNote(t('site_toggle_off', covering));
      return;
    }
    const result = await enableSite(tab.site);
    if (!result.ok) return setNote(result.message);
    setCovering(result.site);
    await sendMessage('checkThisPage', { tabId: tab.id }).catch(() => undefined);
    setNote(t('site_toggle_on', result.site));
  };
  const onCheck = async () => {
    try {
      await sendMessage('checkThisPage', { tabId: tab.id });
      setNote(t('site_toggle_checking'));
    } catch (err) {
      setNote(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <section class="site-toggle" aria-label={t('site_toggle_label')}>
      {tab.site && (
        <button type="button" onClick={() => void onToggle()}>
          {covering ? t('site_toggle_disable') : t('site_toggle_enable')}
        </button>
      )}
      <button type="button" onClick={() => void onCheck()}>
        {t('site_toggle_check')}
      </button>
      {note && <p role="status">{note}</p>}
    </section>
  );
}
