/**
 * createLimits: the per-host, per-domain and global concurrency limits, in one process and across
 * processes sharing slots.
 */
import { describe, expect, it } from 'vitest';
import { createLimits, type HostSlots, type SlotTry } from './limits';

/** Shared slots in memory, as several processes would share them through the database. */
class MemorySlots implements HostSlots {
  readonly taken = new Map<string, number>();
  questions = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly perHost: number) {}

  async tryAcquire(host: string): Promise<SlotTry> {
    this.questions++;
    const now = this.taken.get(host) ?? 0;
    if (now >= this.perHost) return { freed: new Promise((resolve) => this.waiters.add(() => resolve())) };
    this.taken.set(host, now + 1);
    return { release: async () => this.free(host) };
  }

  free(host: string): void {
    this.taken.set(host, (this.taken.get(host) ?? 1) - 1);
    const all = [...this.waiters];
    this.waiters.clear();
    for (const wake of all) wake();
  }
}

/** Counts tasks running at once, per host and in all. */
function meter() {
  const now = new Map<string, number>();
  const peak = new Map<string, number>();
  let total = 0;
  let peakTotal = 0;
  const task = (host: string, ms: number, log?: string[], name?: string) => async () => {
    now.set(host, (now.get(host) ?? 0) + 1);
    peak.set(host, Math.max(peak.get(host) ?? 0, now.get(host) ?? 0));
    peakTotal = Math.max(peakTotal, ++total);
    await new Promise((r) => setTimeout(r, ms));
    now.set(host, (now.get(host) ?? 1) - 1);
    total--;
    if (log && name) log.push(name);
    return name ?? host;
  };
  return { task, peak, peakTotal: () => peakTotal };
}

describe('createLimits', () => {
  it('keeps the per-host and the global limit in one process', async () => {
    const m = meter();
    const limits = createLimits(3, 2);
    const hosts = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c'];
    const results = await Promise.all(hosts.map((h) => limits.run(h, m.task(h, 20))));
    expect(results).toEqual(hosts);
    expect(m.peakTotal()).toBe(3);
    expect(m.peak.get('a')).toBeLessThanOrEqual(2);
    expect(m.peak.get('b')).toBeLessThanOrEqual(2);
  });

  it('bounds the conversations of one domain across all its hosts, other domains go on', async () => {
    const limits = createLimits(8, 8, null, 2);
    let running = 0;
    let peak = 0;
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      log.push(name);
      return name;
    };
    // A domain with ten MX hosts: without the group limit all ten would run at once.
    const tarpit = Array.from({ length: 10 }, (_, i) =>
      limits.run(`mx${i}.tarpit`, task(`t${i}`, 30), undefined, 'tarpit.test'),
    );
    const other = limits.run('mx.other', task('other', 1), undefined, 'other.test');
    await Promise.all([...tarpit, other]);
    expect(peak).toBe(3); // two of the domain's, one of another domain
    expect(log[0]).toBe('other');
  });

  it('keeps the per-host limit across processes sharing slots', async () => {
    const m = meter();
    const slots = new MemorySlots(2);
    const one = createLimits(4, 2, slots);
    const two = createLimits(4, 2, slots);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? one : two).run(i % 3 ? 'a' : 'b', m.task(i % 3 ? 'a' : 'b', 15)),
      ),
    );
    expect(m.peak.get('a')).toBe(2);
    expect(m.peak.get('b')).toBe(2);
    expect(slots.taken.get('a')).toBe(0);
  });

  it('takes no shared slot it cannot use yet, so another process uses it', async () => {
    const m = meter();
    const slots = new MemorySlots(2);
    const busy = createLimits(1, 8, slots); // one conversation at a time, many waiting for host a
    const other = createLimits(4, 8, slots);
    const log: string[] = [];
    const first = Array.from({ length: 4 }, (_, i) => busy.run('a', m.task('a', 60, log, `busy${i}`)));
    await new Promise((r) => setTimeout(r, 10));
    const second = other.run('a', m.task('a', 10, log, 'other'));
    await Promise.all([...first, second]);
    // The busy process held one slot at a time; the other got the second and finished first.
    expect(log[0]).toBe('other');
    expect(m.peak.get('a')).toBe(2);
  });

  it('runs other hosts while a host has every shared slot taken elsewhere', async () => {
    const m = meter();
    const slots = new MemorySlots(1);
    await slots.tryAcquire('a'); // another process holds host a's only slot
    const limits = createLimits(2, 4, slots);
    const log: string[] = [];
    const a = limits.run('a', m.task('a', 5, log, 'a'));
    const b = [1, 2, 3].map((i) => limits.run('b', m.task('b', 5, log, `b${i}`)));
    await Promise.all(b);
    expect(log).toEqual(['b1', 'b2', 'b3']);
    slots.free('a'); // released: the waiting conversation is woken and runs
    expect(await a).toBe('a');
  });

  it('passes a shared slot on to the same host for short conversations', async () => {
    const m = meter();
    const slots = new MemorySlots(8);
    const limits = createLimits(1, 8, slots);
    await Promise.all(Array.from({ length: 5 }, () => limits.run('a', m.task('a', 2))));
    expect(slots.questions).toBe(1);
    expect(slots.taken.get('a')).toBe(0);
  });

  it('never runs nor takes a slot for a conversation cancelled while it waits', async () => {
    const m = meter();
    const slots = new MemorySlots(1);
    const limits = createLimits(4, 1, slots);
    const log: string[] = [];
    const cancel = new AbortController();
    const first = limits.run('a', m.task('a', 20, log, 'first'));
    const dropped = limits.run('a', m.task('a', 20, log, 'dropped'), cancel.signal);
    const last = limits.run('a', m.task('a', 20, log, 'last'));
    cancel.abort(new Error('served elsewhere'));
    await expect(dropped).rejects.toThrow('served elsewhere');
    await Promise.all([first, last]);
    expect(log).toEqual(['first', 'last']);
    expect(slots.questions).toBe(1); // the slot went from first straight to last
    expect(slots.taken.get('a')).toBe(0);
    await expect(limits.run('a', m.task('a', 1), cancel.signal)).rejects.toThrow('served elsewhere');
    expect(slots.questions).toBe(1);
  });

  it('hands on the shared slot of a conversation cancelled while it asked for it', async () => {
    const m = meter();
    let ask: () => void = () => {};
    const inner = new MemorySlots(1);
    // Answers once the test says so, as a database would after a round trip.
    const slots: HostSlots = {
      tryAcquire: async (host) => {
        await new Promise<void>((resolve) => {
          ask = resolve;
        });
        return inner.tryAcquire(host);
      },
    };
    const limits = createLimits(4, 1, slots);
    const log: string[] = [];
    const cancel = new AbortController();
    const dropped = limits.run('a', m.task('a', 5, log, 'dropped'), cancel.signal);
    const next = limits.run('a', m.task('a', 5, log, 'next'));
    cancel.abort(new Error('served elsewhere'));
    ask();
    await expect(dropped).rejects.toThrow('served elsewhere');
    expect(await next).toBe('next');
    expect(log).toEqual(['next']);
    expect(inner.questions).toBe(1);
    await new Promise((r) => setTimeout(r, 5)); // the release follows the answer
    expect(inner.taken.get('a')).toBe(0);
  });

  it('drops a conversation cancelled while its host waits for a slot held elsewhere', async () => {
    const m = meter();
    const slots = new MemorySlots(1);
    await slots.tryAcquire('a'); // another process holds host a's only slot
    const limits = createLimits(4, 1, slots);
    const log: string[] = [];
    const cancel = new AbortController();
    const dropped = limits.run('a', m.task('a', 5, log, 'dropped'), cancel.signal);
    await new Promise((r) => setTimeout(r, 5));
    expect(slots.questions).toBe(2); // asked once, and found every slot taken
    cancel.abort(new Error('served elsewhere'));
    await expect(dropped).rejects.toThrow('served elsewhere');
    slots.free('a');
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual([]);
    expect(slots.questions).toBe(2); // not asked again for the dropped conversation
    expect(slots.taken.get('a')).toBe(0);
  });
});

describe('urgent conversations (single checks)', () => {
  it('start before the bulk rows queued at their host and at other hosts', async () => {
    const limits = createLimits(1, 1);
    const started: string[] = [];
    const job = (name: string) => async () => {
      started.push(name);
      await new Promise((r) => setTimeout(r, 5));
    };
    const all = [
      limits.run('a', job('bulk-a1')),
      limits.run('a', job('bulk-a2')),
      limits.run('b', job('bulk-b1')),
      limits.run('a', job('single-a'), undefined, undefined, true),
      limits.run('c', job('single-c'), undefined, undefined, true),
    ];
    await Promise.all(all);
    // bulk-a1 took the one slot at once; then the two single checks, then the bulk rows.
    expect(started).toEqual(['bulk-a1', 'single-a', 'single-c', 'bulk-b1', 'bulk-a2']);
  });

  it('follow the destination window: a narrowed window holds conversations back', async () => {
    const { Destinations } = await import('./destinations');
    const windows = new Destinations({ initial: 1, max: 4, deadMs: 1000 });
    const limits = createLimits(8, 4, null, Number.POSITIVE_INFINITY, windows);
    const m = meter();
    await Promise.all(Array.from({ length: 4 }, () => limits.run('192.0.2.7', m.task('192.0.2.7', 10))));
    expect(m.peak.get('192.0.2.7')).toBe(1);
    for (let i = 0; i < 10; i++) windows.report('192.0.2.7', 'ok');
    await Promise.all(Array.from({ length: 8 }, () => limits.run('192.0.2.7', m.task('192.0.2.7', 10))));
    expect(m.peak.get('192.0.2.7')).toBe(4);
  });
});
