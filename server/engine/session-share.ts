/**
 * One SMTP connection for several recipients of the same MX address, as a bulk sender does: a
 * conversation that got its answer, instead of QUIT, serves the rows waiting for a slot at the
 * same host and address — RSET, MAIL FROM, RCPT TO each — up to a cap, then QUITs. Its host slot
 * (per-host and global, in-process and shared) is held for the connection's whole life, so no
 * more connections are ever open than without sharing, and no connection is ever idle. A row
 * taken by an open connection gives up its own place in the host's queue at once (its ticket's
 * `taken` signal): it takes no slot, as it opens no connection.
 *
 * A row served this way keeps only a definite answer to its RCPT (2xx or 5xx): anything else on
 * the shared connection (RSET or MAIL not 250, a 4xx such as 421 or 452, a drop, a timeout)
 * ends the sharing and the row probes on a fresh connection of its own, exactly as it would have.
 */
import type { ProbeOutcome, ProbeRequest } from './smtp-probe';

/** Recipients one connection serves at most (the first included). */
export const RECIPIENTS_PER_CONNECTION = 20;

interface Waiter {
  req: ProbeRequest;
  /** Aborted when an open connection takes the row: its own slot is not wanted any more. */
  claim: AbortController;
  /** The outcome on the shared connection, or null: probe on a fresh connection. */
  resolve(outcome: ProbeOutcome | null): void;
}

/** What a row registered for sharing waits on. */
export interface Ticket {
  /** Settles once an open connection has served the row (null: it could not). */
  served: Promise<ProbeOutcome | null>;
  /** Fires when an open connection takes the row (`served` settles later, once it is asked). */
  taken: AbortSignal;
  /** Leaves the queue to probe on its own; false when a connection has already taken the row. */
  leave(): boolean;
}

export class SessionShare {
  private readonly queues = new Map<string, Waiter[]>();

  constructor(readonly perConnection: number = RECIPIENTS_PER_CONNECTION) {}

  /** Registers a row waiting for a slot at host `name`, address `address`. */
  wait(name: string, address: string, req: ProbeRequest): Ticket {
    const key = `${name}\n${address}`;
    let resolve: (outcome: ProbeOutcome | null) => void = () => {};
    const served = new Promise<ProbeOutcome | null>((done) => {
      resolve = done;
    });
    const waiter: Waiter = { req, claim: new AbortController(), resolve };
    const queue = this.queues.get(key) ?? [];
    queue.push(waiter);
    this.queues.set(key, queue);
    return {
      served,
      taken: waiter.claim.signal,
      leave: () => {
        if (waiter.claim.signal.aborted) return false;
        this.remove(key, waiter);
        return true;
      },
    };
  }

  /** Whether a row waits at this host and address. */
  waiting(name: string, address: string): boolean {
    return this.queues.has(`${name}\n${address}`);
  }

  /** The next row waiting at this host and address, taken (claimed) by the caller's connection. */
  take(name: string, address: string): Waiter | null {
    const key = `${name}\n${address}`;
    const queue = this.queues.get(key);
    const waiter = queue?.shift() ?? null;
    if (queue && queue.length === 0) this.queues.delete(key);
    waiter?.claim.abort(new Error('served on a shared connection'));
    return waiter;
  }

  private remove(key: string, waiter: Waiter): void {
    const queue = this.queues.get(key);
    if (!queue) return;
    const at = queue.indexOf(waiter);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(key);
  }
}
