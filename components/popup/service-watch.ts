/**
 * After a failed call, the popup asks the service again on its own — after 2, 4, 8, 16 and then
 * every 30 s while the service cannot be reached — and at once on "Retry". When it answers, the
 * banner goes and `onRecovered` lets the panels reload (and send a check queued while offline).
 */
import { useCallback, useEffect, useRef } from 'preact/hooks';
import { type ApiError, fromMessageError } from '@/lib/api/errors';
import { sendMessage } from '@/lib/shared/messages';

/** What the popup knows of the service after its last call (api-status.tsx holds it). */
export interface ApiStatus {
  error: ApiError | null;
  /** Which kind of call failed (e.g. `verify`); its own success clears the error. */
  source?: string;
  /** Seconds until the retry of a rate-limited call, when one is waiting. */
  retryIn: number | null;
}

/** Errors that can end without the user doing anything: the popup checks again by itself. */
const WATCHED = new Set(['network', 'server']);
const BACKOFF_MS = [2000, 4000, 8000, 16_000, 30_000];

/** A free call that proves the service answers and accepts the key. */
const probe = () => sendMessage('listFiles', { page: 1, pageSize: 1 });

export function useServiceWatch(
  status: ApiStatus,
  setStatus: (update: (previous: ApiStatus) => ApiStatus) => void,
  onRecovered: () => void,
): () => Promise<void> {
  const attempt = useRef(0);
  const checking = useRef(false);

  const checkNow = useCallback(async () => {
    if (checking.current) return;
    checking.current = true;
    try {
      await probe();
      attempt.current = 0;
      setStatus((prev) =>
        prev.error && prev.error.kind !== 'rate_limited' ? { error: null, retryIn: null } : prev,
      );
      onRecovered();
    } catch (err) {
      const error = fromMessageError(err);
      attempt.current++;
      // The newest reason replaces the old one (e.g. the key was refused once the service is back).
      setStatus((prev) => (prev.error ? { ...prev, error } : prev));
    } finally {
      checking.current = false;
    }
  }, [setStatus, onRecovered]);

  const kind = status.error?.kind;
  const error = status.error;
  useEffect(() => {
    if (!kind || !WATCHED.has(kind)) {
      if (!kind) attempt.current = 0;
      return;
    }
    const delay = BACKOFF_MS[Math.min(attempt.current, BACKOFF_MS.length - 1)] ?? 30_000;
    const id = setTimeout(() => void checkNow(), delay);
    return () => clearTimeout(id);
  }, [kind, error, checkNow]);

  return checkNow;
}
