/**
 * Global and per-MX-host concurrency for SMTP conversations (p-limit). A conversation waits
 * for its host's slot first, so a busy host never holds global slots while it queues.
 *
 * `shared` (optional) adds per-host slots held across processes (server/store/postgres/
 * host-slots.ts): the in-process limit keeps this process's own waiters in line, the shared
 * slot keeps every process together within the per-host limit. The global limit stays per
 * process, so adding worker processes adds capacity.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export interface Limits {
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
}

/** Per-host slots shared by several processes: acquire waits for one, the result releases it. */
export interface HostSlots {
  acquire(host: string): Promise<() => Promise<void>>;
}

export function createLimits(global: number, perHost: number, shared?: HostSlots | null): Limits {
  const globalLimit = pLimit(Math.max(1, global));
  const hosts = new Map<string, LimitFunction>();
  const guarded = <T>(host: string, task: () => Promise<T>): Promise<T> => {
    if (!shared) return globalLimit(task);
    return shared.acquire(host).then(async (release) => {
      try {
        return await globalLimit(task);
      } finally {
        await release();
      }
    });
  };
  return {
    run(host, task) {
      let hostLimit = hosts.get(host);
      if (!hostLimit) {
        hostLimit = pLimit(Math.max(1, perHost));
        hosts.set(host, hostLimit);
      }
      const limit = hostLimit;
      return limit(() => guarded(host, task)).finally(() => {
        // Forget idle hosts so a long-running service does not keep one limiter per host ever seen.
        if (limit.activeCount === 0 && limit.pendingCount === 0 && hosts.get(host) === limit)
          hosts.delete(host);
      });
    },
  };
}
