/**
 * The key's balance (`GET /account`, when the service tells it): shown in the header as
 * "N credits", compared with what an upload takes, and a hint when it runs low. `undefined`
 * while unknown; null when the service does not tell it (then nothing is shown).
 */
import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useState } from 'preact/hooks';
import { t, tn } from '@/lib/shared/i18n';
import { sendMessage } from '@/lib/shared/messages';
import type { AccountView } from '@/lib/shared/views';
import { useApi, useRecovered } from './api-status';

/** Below this many credits the header says the balance is low. */
const LOW_BALANCE = 50;

interface AccountContextValue {
  account: AccountView | null | undefined;
  refresh: () => void;
}

const AccountContext = createContext<AccountContextValue>({ account: undefined, refresh: () => {} });

export function AccountProvider({ children }: { children: ComponentChildren }) {
  const call = useApi();
  const recovered = useRecovered();
  const [account, setAccount] = useState<AccountView | null | undefined>(undefined);
  const refresh = useCallback(() => {
    void call(() => sendMessage('getAccount'), 'account').then((result) => {
      if (result !== undefined) setAccount(result);
    });
  }, [call]);
  useEffect(refresh, [recovered]);
  const value = useMemo(() => ({ account, refresh }), [account, refresh]);
  return <AccountContext.Provider value={value}>{children}</AccountContext.Provider>;
}

export function useAccount(): AccountContextValue {
  return useContext(AccountContext);
}

/** "1,000 credits" in the header; nothing when the service does not tell the balance. */
export function Balance() {
  const { account } = useAccount();
  if (!account) return null;
  const low = account.credits < LOW_BALANCE;
  return (
    <p class={`balance${low ? ' balance-low' : ''}`} data-testid="balance">
      {tn('popup_balance', account.credits)}
    </p>
  );
}

/** Under the header when the balance is low: what it means and what to do. */
export function LowBalanceHint() {
  const { account } = useAccount();
  if (!account || account.credits >= LOW_BALANCE) return null;
  return (
    <p class="hint-low" data-testid="low-balance">
      {account.credits === 0 ? t('popup_balance_empty') : tn('popup_balance_low', account.credits)}
    </p>
  );
}
