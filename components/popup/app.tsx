/** The toolbar popup: Verify, Upload and Files tabs, one error banner, one live status line. */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { SiteToggle } from '../site-toggle/site-toggle';
import { ApiStatusProvider } from './api-status';
import { ErrorBanner } from './error-banner';
import { FilesPanel } from './files/files-panel';
import { LiveStatusProvider } from './live-status';
import { OfflineNotice } from './offline-notice';
import { Tabs } from './tabs';
import { UploadPanel } from './upload/upload-panel';
import { useInterval } from './use-interval';
import { VerifyPanel } from './verify/verify-panel';

const HEARTBEAT_MS = 5000;

function heartbeat() {
  sendMessage('popupHeartbeat').catch(() => {});
}

export function App() {
  const [tab, setTab] = useState('verify');
  useEffect(heartbeat, []);
  useInterval(heartbeat, HEARTBEAT_MS);
  return (
    <ApiStatusProvider>
      <LiveStatusProvider>
        <div class="popup">
          <header class="top">
            <h1>{t('extName')}</h1>
            <button
              type="button"
              class="link-button"
              onClick={() => {
                void browser.runtime.openOptionsPage();
              }}
            >
              {t('popup_settings')}
            </button>
          </header>
          <OfflineNotice />
          <ErrorBanner />
          <SiteToggle />
          <Tabs
            label={t('popup_tabs_label')}
            selected={tab}
            onSelect={setTab}
            tabs={[
              { id: 'verify', label: t('popup_tab_verify'), panel: <VerifyPanel /> },
              { id: 'upload', label: t('popup_tab_upload'), panel: <UploadPanel /> },
              { id: 'files', label: t('popup_tab_files'), panel: <FilesPanel active={tab === 'files'} /> },
            ]}
          />
        </div>
      </LiveStatusProvider>
    </ApiStatusProvider>
  );
}
