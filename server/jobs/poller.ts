/**
 * Poller: runs a fill function when kicked and on a timer, one run at a time (the workers' loop).
 */
import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `fill` when kicked and every `everyMs` while not stopped, never two at once: a kick
 * during a run makes one more run after it. Errors are logged and retried at the next tick.
 */
export class Poller {
  private running = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  stopped = false;

  constructor(
    private readonly everyMs: number,
    private readonly fill: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    if (this.timer) clearTimeout(this.timer);
    this.fill()
      .catch((err: unknown) => {
        if (!this.stopped) this.log.error({ err }, 'could not look for work');
      })
      .finally(() => {
        this.running = false;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
          return;
        }
        this.timer = setTimeout(() => this.kick(), this.everyMs);
      });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
