/**
 * SqliteHostSlots: the per-host limit across connections to one file, waking waiters, taking back
 * a dead process's slots.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlotTry } from '../../engine/limits';
import { type Db, openDatabase } from './db';
import { SqliteHostSlots } from './host-slots';

let dir: string;
const dbs: Db[] = [];

/** A new connection to the test's database file, as another process would open it. */
function connect(): Db {
  const db = openDatabase(dir);
  dbs.push(db);
  return db;
}

function taken(got: SlotTry): () => Promise<void> {
  if (!('release' in got)) throw new Error('expected a slot');
  return got.release;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verimark-slots-'));
});
afterEach(async () => {
  for (const db of dbs.splice(0)) db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SqliteHostSlots', () => {
  it('keeps the per-host limit across connections to one file, per host', async () => {
    const one = new SqliteHostSlots(connect(), 2);
    const two = new SqliteHostSlots(connect(), 2);
    const a1 = taken(await one.tryAcquire('mx.a.test'));
    taken(await two.tryAcquire('MX.A.test'));
    const full = await one.tryAcquire('mx.a.test');
    expect('freed' in full).toBe(true);
    expect('release' in (await two.tryAcquire('mx.b.test'))).toBe(true);
    await a1();
    expect('release' in (await two.tryAcquire('mx.a.test'))).toBe(true);
    one.close();
    two.close();
  });

  it('wakes a waiter of this process at once when a slot is released', async () => {
    const slots = new SqliteHostSlots(connect(), 1);
    const release = taken(await slots.tryAcquire('mx.a.test'));
    const full = await slots.tryAcquire('mx.a.test');
    if (!('freed' in full)) throw new Error('expected no slot');
    let woken = false;
    void full.freed.then(() => {
      woken = true;
    });
    await release();
    await Promise.resolve();
    expect(woken).toBe(true);
    slots.close();
  });

  it('takes back the slots of a process that is gone, and expired leases', async () => {
    const db = connect();
    const insert = db.prepare('INSERT INTO host_slots (host, slot, owner, lease_until) VALUES (?, ?, ?, ?)');
    // A process of this machine that no longer runs (pids are below 2^22), with a live lease.
    insert.run('mx.a.test', 0, `${hostname()}:4999999:dead`, Date.now() + 60_000);
    // A process on another machine whose lease ran out.
    insert.run('mx.a.test', 1, 'elsewhere:1:gone', Date.now() - 1);
    // A live process (this one, under another name) keeps its slot.
    insert.run('mx.b.test', 0, `${hostname()}:${process.pid}:other`, Date.now() + 60_000);
    const slots = new SqliteHostSlots(connect(), 2);
    taken(await slots.tryAcquire('mx.a.test'));
    taken(await slots.tryAcquire('mx.a.test'));
    expect('release' in (await slots.tryAcquire('mx.b.test'))).toBe(true);
    expect('freed' in (await slots.tryAcquire('mx.b.test'))).toBe(true);
    const owners = db.prepare('SELECT DISTINCT owner FROM host_slots ORDER BY owner').pluck().all();
    expect(owners).toEqual([`${hostname()}:${process.pid}:other`, slots.owner].sort());
    slots.close();
    expect(db.prepare('SELECT COUNT(*) FROM host_slots').pluck().get()).toBe(1);
  });
});
