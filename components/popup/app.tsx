/**
 * The toolbar popup: the balance in the header, one error banner, and the Verify, Upload and
 * Files tabs — or, until a service and key are saved, a setup card instead of the forms.
 */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { SiteToggle } from '@/components/site-toggle/site-toggle';
import { t } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import { AccountProvider, Balance, LowBalanceHint } from './account';
import { ApiStatusProvider } from './api-status';
import { ErrorBanner } from './error-banner';
import { FilesPanel } from './files/files-panel';
import { LiveStatusProvider } from './live-status';
import { OfflineNotice } from './offline-notice';
import { PageActions } from './page-actions/page-actions';
import { type MovedKey, SetupCard } from './setup-card';
import { Tabs } from './tabs';
import { UploadPanel } from './upload/upload-panel';
import { useInterval } from './use-interval';
import { VerifyPanel } from './verify/verify-panel';

const HEARTBEAT_MS = 5000;

function heartbeat() {
  sendMessage('popupHeartbeat').catch(() => {});
}

/** Whether a service URL and a key are saved (null until known), and a key left at a previous address. */
function useConfigured(): [boolean | null, MovedKey | null] {
  const [configured, setConfigured] = useState<boolean | null>(null);
  const [moved, setMoved] = useState<MovedKey | null>(null);
  useEffect(() => {
    const load = () =>
      sendMessage('getSettings').then(
        (view) => {
          setConfigured(view.serviceUrl !== '' && view.hasApiKey);
          setMoved(view.apiKeyElsewhere ? { from: view.apiKeyElsewhere, to: view.serviceUrl } : null);
        },
        () => setConfigured(false),
      );
    void load();
    // Settings saved in the options page while the popup is open (a tab opened as the popup).
    addEventListener('focus', load);
    return () => removeEventListener('focus', load);
  }, []);
  return [configured, moved];
}

function Tools() {
  const [tab, setTab] = useState('verify');
  const [filesQuery, setFilesQuery] = useState({ text: '', version: 0 });
  const showFile = (name: string) => {
    setFilesQuery((prev) => ({ text: name, version: prev.version + 1 }));
    setTab('files');
  };
  return (
    <Tabs
      label={t('popup_tabs_label')}
      selected={tab}
      onSelect={setTab}
      tabs={[
        { id: 'verify', label: t('popup_tab_verify'), panel: <VerifyPanel /> },
        { id: 'upload', label: t('popup_tab_upload'), panel: <UploadPanel onShowFile={showFile} /> },
        {
          id: 'files',
          label: t('popup_tab_files'),
          panel: <FilesPanel active={tab === 'files'} query={filesQuery} />,
        },
      ]}
    />
  );
}

export function App() {
  const [configured, moved] = useConfigured();
  useEffect(heartbeat, []);
  useInterval(heartbeat, HEARTBEAT_MS);
  return (
    <ApiStatusProvider>
      <LiveStatusProvider>
        <AccountGate configured={configured} moved={moved} />
      </LiveStatusProvider>
    </ApiStatusProvider>
  );
}

function AccountGate({ configured, moved }: { configured: boolean | null; moved: MovedKey | null }) {
  const header = (
    <header class="top">
      <h1>{t('extName')}</h1>
      {configured && <Balance />}
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
  );
  if (configured === null) return <div class="popup">{header}</div>;
  if (!configured) {
    return (
      <div class="popup">
        {header}
        <div class="panel-body">
          <SetupCard moved={moved} />
        </div>
      </div>
    );
  }
  return (
    <AccountProvider>
      <div class="popup">
        {header}
        <LowBalanceHint />
        <OfflineNotice />
        <ErrorBanner />
        <SiteToggle />
        <PageActions />
        <Tools />
      </div>
    </AccountProvider>
  );
}
