/**
 * The Postgres host slots (./host-slots.ts) on a throwaway cluster: each AdvisoryHostSlots holds
 * its own connection, as each process does, so two of them are two processes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SlotTry } from '../../engine/limits';
import { usePostgres } from '../../testing/postgres-suite';
import { AdvisoryHostSlots } from './host-slots';

const pg = usePostgres();
const opened: AdvisoryHostSlots[] = [];

function slots(perHost: number): AdvisoryHostSlots {
  const s = new AdvisoryHostSlots(pg.url(), perHost);
  opened.push(s);
  return s;
}

function taken(got: SlotTry): () => Promise<void> {
  if (!('release' in got)) throw new Error('expected a slot');
  return got.release;
}

function refused(got: SlotTry): Promise<void> {
  if (!('freed' in got)) throw new Error('expected no slot');
  return got.freed;
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

describe('AdvisoryHostSlots', () => {
  it('keeps the per-host limit across processes, per host', async () => {
    const one = slots(2);
    const two = slots(2);
    const a1 = taken(await one.tryAcquire('mx.a.test'));
    taken(await two.tryAcquire('MX.A.test'));
    void refused(await one.tryAcquire('mx.a.test'));
    taken(await two.tryAcquire('mx.b.test'));
    await a1();
    taken(await two.tryAcquire('mx.a.test'));
  });

  it('never hands out twice a slot this process holds (advisory locks are re-entrant)', async () => {
    const one = slots(2);
    taken(await one.tryAcquire('mx.a.test'));
    taken(await one.tryAcquire('mx.a.test'));
    void refused(await one.tryAcquire('mx.a.test'));
  });

  it('wakes a waiter of this process at once when a slot is released', async () => {
    const one = slots(1);
    const release = taken(await one.tryAcquire('mx.a.test'));
    let woken = false;
    void refused(await one.tryAcquire('mx.a.test')).then(() => {
      woken = true;
    });
    await release();
    await Promise.resolve();
    expect(woken).toBe(true);
  });

  it('lets another process take the slot a released or closed one held', async () => {
    const one = slots(1);
    const two = slots(1);
    const release = taken(await one.tryAcquire('mx.a.test'));
    void refused(await two.tryAcquire('mx.a.test'));
    await release();
    const again = taken(await two.tryAcquire('mx.a.test'));
    await again();
    taken(await one.tryAcquire('mx.a.test'));
    // A process that goes away (its connection with it) frees its slots at once.
    await one.close();
    taken(await two.tryAcquire('mx.a.test'));
  });
});
