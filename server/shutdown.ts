/** Signal handling shared by `npm run service` (server/main.ts) and `npm run service:worker`. */

const SHUTDOWN_TIMEOUT_MS = 15_000;
/** A second signal sooner than this after the first is the same Ctrl-C relayed twice. */
const REPEAT_MS = 1000;

interface ShutdownLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface ShutdownOptions {
  log: ShutdownLog;
  /** Logged when the first signal arrives. */
  stopping: string;
  /** Logged when `close` rejects. */
  failed: string;
  /** Stops the process's work; the process exits 0 once it resolves. */
  close: () => Promise<unknown>;
}

/**
 * On SIGINT/SIGTERM: closes, then exits (0, or 1 when closing fails or takes longer than
 * SHUTDOWN_TIMEOUT_MS). tsx relays the terminal's SIGINT, so one Ctrl-C can arrive twice: only
 * a signal a second after the first forces an exit at once.
 */
export function exitOnSignals(opts: ShutdownOptions): void {
  let closingSince = 0;
  const shutdown = (signal: string) => {
    if (closingSince > 0) {
      if (Date.now() - closingSince > REPEAT_MS) process.exit(1);
      return;
    }
    closingSince = Date.now();
    opts.log.info({ signal }, opts.stopping);
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    opts.close().then(
      () => process.exit(0),
      (err: unknown) => {
        opts.log.error({ err }, opts.failed);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
