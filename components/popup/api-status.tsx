/**
 * How the popup talks to the background and shows what went wrong. Every call goes through
 * `useApi()`: errors are read with fromMessageError into one banner for the whole popup, which
 * offers "Retry"; a 429 is retried after the service's Retry-After while
 * the banner says so. While a call has failed, service-watch.ts asks the service again (with
 * backoff, and at once on "Retry"); `recovered` counts the times it answered again, and panels
 * reload what failed when it changes.
 */
import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, fromMessageError } from '@/lib/api/errors';
import { sleep } from '@/lib/api/retry';
import { type ApiStatus, useServiceWatch } from './service-watch';

interface ApiContextValue {
  status: ApiStatus;
  setStatus: (update: (previous: ApiStatus) => ApiStatus) => void;
  /** How many times the service answered again after an outage (panels reload on a change). */
  recovered: number;
  /** Asks the service again now; the banner goes when it answers. */
  checkNow: () => Promise<void>;
}

/** Errors about the connection or the key: any successful call shows they are over. */
const CLEARED_BY_ANY_SUCCESS = new Set([
  'network',
  'rate_limited',
  'server',
  'invalid_key',
  'not_configured',
]);
const CLEAR: ApiStatus = { error: null, retryIn: null };

const ApiContext = createContext<ApiContextValue>({
  status: CLEAR,
  setStatus: () => {},
  recovered: 0,
  checkNow: async () => {},
});

export function ApiStatusProvider({ children }: { children: ComponentChildren }) {
  const [status, setStatus] = useState<ApiStatus>(CLEAR);
  const [recovered, setRecovered] = useState(0);
  const markRecovered = useCallback(() => setRecovered((n) => n + 1), []);
  const checkNow = useServiceWatch(status, setStatus, markRecovered);
  const value = useMemo(() => ({ status, setStatus, recovered, checkNow }), [status, recovered, checkNow]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApiStatus(): ApiStatus {
  return useContext(ApiContext).status;
}

export function useApiContext(): ApiContextValue {
  return useContext(ApiContext);
}

/** The number of times the service came back; an effect on it reloads what failed. */
export function useRecovered(): number {
  return useContext(ApiContext).recovered;
}

const MAX_RETRY_SECONDS = 60;

type CallResult<T> = { ok: true; value: T } | { ok: false; error: ApiError | null };

/**
 * `call(fn)` runs `fn` and resolves with its result, or with `undefined` after an error that
 * the banner now shows. Rate-limited calls are retried until they succeed or the popup closes.
 * `call.result(fn)` says which error it was.
 */
export type ApiCall = (<T>(fn: () => Promise<T>, source?: string) => Promise<T | undefined>) & {
  result: <T>(fn: () => Promise<T>, source?: string) => Promise<CallResult<T>>;
};

export function useApi(): ApiCall {
  const { setStatus } = useContext(ApiContext);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  return useMemo(() => {
    const result = async <T,>(fn: () => Promise<T>, source = 'default'): Promise<CallResult<T>> => {
      for (;;) {
        try {
          const value = await fn();
          // Calls answered by the background alone (source `local`) say nothing about the service.
          if (alive.current && source !== 'local') {
            setStatus((prev) =>
              prev.error && (prev.source === source || CLEARED_BY_ANY_SUCCESS.has(prev.error.kind))
                ? CLEAR
                : prev,
            );
          }
          return { ok: true, value };
        } catch (err) {
          const error = fromMessageError(err);
          if (!alive.current) return { ok: false, error: null };
          if (error.kind !== 'rate_limited') {
            setStatus(() => ({ error, source, retryIn: null }));
            return { ok: false, error };
          }
          const wait = Math.min(Math.max(error.retryAfterSeconds ?? 5, 1), MAX_RETRY_SECONDS);
          for (let left = wait; left > 0 && alive.current; left--) {
            setStatus(() => ({ error, source, retryIn: left }));
            await sleep(1000);
          }
          if (!alive.current) return { ok: false, error: null };
        }
      }
    };
    const call = async <T,>(fn: () => Promise<T>, source?: string): Promise<T | undefined> => {
      const outcome = await result(fn, source);
      return outcome.ok ? outcome.value : undefined;
    };
    return Object.assign(call, { result });
  }, [setStatus]);
}
