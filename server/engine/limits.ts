/**
 * Global and per-MX-host concurrency for SMTP conversations (p-limit). A conversation waits
 * for its host's slot first, so a busy host never holds global slots while it queues.
 */
import pLimit, { type LimitFunction } from 'p-limit';

export interface Limits {
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
}

export function createLimits(global: number, perHost: number): Limits {
  const globalLimit = pLimit(Math.max(1, global));
  const hosts = new Map<string, LimitFunction>();
  return {
    run(host, task) {
      let hostLimit = hosts.get(host);
      if (!hostLimit) {
        hostLimit = pLimit(Math.max(1, perHost));
        hosts.set(host, hostLimit);
      }
      const limit = hostLimit;
      return limit(() => globalLimit(task)).finally(() => {
        // Forget idle hosts so a long-running service does not keep one limiter per host ever seen.
        if (limit.activeCount === 0 && limit.pendingCount === 0 && hosts.get(host) === limit)
          hosts.delete(host);
      });
    },
  };
}
