// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { type Batch, TreeWatcher } from './observer';
import { BADGE_TAG } from './scan';

const nextBatch = (batches: Batch[]) =>
  new Promise<Batch>((resolve) => {
    const started = batches.length;
    const poll = () => (batches.length > started ? resolve(batches[started] as Batch) : setTimeout(poll, 5));
    poll();
  });

describe('TreeWatcher', () => {
  const controller = new AbortController();
  afterEach(() => document.body.replaceChildren());

  it('batches additions and attribute changes, ignoring our own badges', async () => {
    const batches: Batch[] = [];
    const watcher = new TreeWatcher(window, controller.signal, (b) => batches.push(b), 10);
    watcher.observe(document);
    const wait = nextBatch(batches);
    const a = document.createElement('a');
    const b = document.createElement('a');
    document.body.append(a, b, document.createElement(BADGE_TAG));
    a.setAttribute('href', 'mailto:x@y.test');
    const batch = await wait;
    expect(batch.added).toEqual([a, b]);
    expect(batch.changed).toEqual([a]);
    expect(batch.rescan).toBe(false);
    expect(batches).toHaveLength(1);
  });

  it('makes no batch for our own badges coming and going', async () => {
    const batches: Batch[] = [];
    const watcher = new TreeWatcher(window, controller.signal, (b) => batches.push(b), 10);
    watcher.observe(document);
    const badge = document.createElement(BADGE_TAG);
    document.body.append(badge);
    badge.remove();
    await new Promise((r) => setTimeout(r, 100));
    expect(batches).toEqual([]);
    // A page node removed is news: what stood after it has moved.
    const wait = nextBatch(batches);
    const row = document.createElement('div');
    document.body.append(row);
    await wait;
    const again = nextBatch(batches);
    row.remove();
    expect(await again).toEqual({ added: [], changed: [], rescan: false, moved: true });
  });

  it('turns a flood of additions into one full rescan', async () => {
    const batches: Batch[] = [];
    const watcher = new TreeWatcher(window, controller.signal, (b) => batches.push(b), 10);
    watcher.observe(document);
    const wait = nextBatch(batches);
    for (let i = 0; i < 50; i++) document.body.append(document.createElement('div'));
    const batch = await wait;
    expect(batch.rescan).toBe(true);
    expect(batch.added).toEqual([]);
  });

  it('stops when the signal aborts', async () => {
    const local = new AbortController();
    const batches: Batch[] = [];
    const watcher = new TreeWatcher(window, local.signal, (b) => batches.push(b));
    watcher.observe(document);
    local.abort();
    document.body.append(document.createElement('a'));
    await new Promise((r) => setTimeout(r, 50));
    expect(batches).toEqual([]);
  });
});
