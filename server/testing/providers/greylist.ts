/**
 * Greylisting as postgrey does it (its documented default policy): the triplet (client address,
 * sender, recipient) is deferred until `windowMs` has passed since its first try, then accepted
 * on every later try. Shared by all hosts of the provider world, as one postgrey serves a
 * Postfix instance and one greylisting service a provider's MX hosts.
 */

export interface Greylist {
  /** Whether this triplet may pass now; the first try of a triplet starts its window. */
  pass(client: string, sender: string, recipient: string): boolean;
  /** Every triplet seen, with its first try and the number of deferred tries. */
  triplets(): Map<string, { first: number; deferred: number; passed: number }>;
  /** Forgets every triplet (a fresh greylister). */
  reset(): void;
  readonly windowMs: number;
}

export function createGreylist(windowMs: number, now: () => number = Date.now): Greylist {
  const seen = new Map<string, { first: number; deferred: number; passed: number }>();
  return {
    windowMs,
    pass(client, sender, recipient) {
      const key = `${client}/${sender}/${recipient}`;
      const entry = seen.get(key) ?? { first: now(), deferred: 0, passed: 0 };
      seen.set(key, entry);
      if (now() - entry.first >= windowMs) {
        entry.passed++;
        return true;
      }
      entry.deferred++;
      return false;
    },
    triplets: () => new Map(seen),
    reset: () => seen.clear(),
  };
}
