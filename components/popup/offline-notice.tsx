/** The browser's own offline signal, shown before any call fails. */
import { useEffect, useState } from 'preact/hooks';
import { t } from '@/lib/shared/i18n';
import { useApiStatus } from './api-status';

export function OfflineNotice() {
  const [online, setOnline] = useState(navigator.onLine);
  const { error } = useApiStatus();
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);
  // The error banner already says the same after a failed call.
  if (online || error?.kind === 'network') return null;
  return (
    <div class="banner banner-network" role="alert">
      <p>{t('popup_error_offline')}</p>
    </div>
  );
}
