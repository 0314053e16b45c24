/**
 * How the popup talks to the background and shows what went wrong. Every call goes through
 * `useApi()`: errors are read with fromMessageError into one banner for the whole popup;
 * a 429 is retried after the service's Retry-After while the banner says so.
 */
import { type ComponentChildren, createContext } from 'preact';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, fromMessageError } from '@/lib/api/errors';
import { sleep } from '@/lib/api/retry';

export interface ApiStatus {
  error: ApiError | null;
  /** Which kind of call failed (e.g. `verify`); its own success clears the error. */
  source?: string;
  /** Seconds until the retry of a rate-limited call, when one is waiting. */
  retryIn: number | null;
}

interface ApiContextValue {
  status: ApiStatus;
  setStatus: (update: (previous: ApiStatus) => ApiStatus) => void;
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

const ApiContext = createContext<ApiContextValue>({ status: CLEAR, setStatus: () => {} });

export function ApiStatusProvider({ children }: { children: ComponentChildren }) {
  const [status, setStatus] = useState<ApiStatus>(CLEAR);
  const value = useMemo(() => ({ status, setStatus }), [status]);
  return <ApiContext.Provider value={value}>{children}</ApiContext.Provider>;
}

export function useApiStatus(): ApiStatus {
  return useContext(ApiContext).status;
}

const MAX_RETRY_SECONDS = 60;

/**
 * `call(fn)` runs `fn` and resolves with its result, or with `undefined` after an error that
 * the banner now shows. Rate-limited calls are retried until they succeed or the popup closes.
 */
export type ApiCall = <T>(fn: () => Promise<T>, source?: string) => Promise<T | undefined>;

export function useApi(): ApiCall {
  const { setStatus } = useContext(ApiContext);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  return useCallback(
    async <T,>(fn: () => Promise<T>, source = 'default'): Promise<T | undefined> => {
      for (;;) {
        try {
          const result = await fn();
          // Calls answered by the background alone (source `local`) say nothing about the service.
          if (alive.current && source !== 'local') {
            setStatus((prev) =>
              prev.error && (prev.source === source || CLEARED_BY_ANY_SUCCESS.has(prev.error.kind))
                ? CLEAR
                : prev,
            );
          }
          return result;
        } catch (err) {
          const error = fromMessageError(err);
          if (!alive.current) return undefined;
          if (error.kind !== 'rate_limited') {
            setStatus(() => ({ error, source, retryIn: null }));
            return undefined;
          }
          const wait = Math.min(Math.max(error.retryAfterSeconds ?? 5, 1), MAX_RETRY_SECONDS);
          for (let left = wait; left > 0 && alive.current; left--) {
            setStatus(() => ({ error, source, retryIn: left }));
            await sleep(1000);
          }
          if (!alive.current) return undefined;
        }
      }
    },
    [setStatus],
  );
}
