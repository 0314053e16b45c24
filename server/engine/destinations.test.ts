/** The per-destination concurrency window and dead-destination memory (./destinations.ts). */
import { describe, expect, it } from 'vitest';
import { Destinations } from './destinations';

function clocked(options: { initial?: number; max?: number; deadMs?: number } = {}) {
  let now = 1_000_000;
  const d = new Destinations({ initial: 2, max: 8, deadMs: 60_000, ...options, now: () => now });
  return { d, advance: (ms: number) => (now += ms) };
}

describe('Destinations', () => {
  it('starts small and grows by one after a whole window of answers', () => {
    const { d } = clocked();
    expect(d.window('192.0.2.1')).toBe(2);
    d.report('192.0.2.1', 'ok');
    expect(d.window('192.0.2.1')).toBe(2);
    d.report('192.0.2.1', 'ok');
    expect(d.window('192.0.2.1')).toBe(3);
    for (let i = 0; i < 3; i++) d.report('192.0.2.1', 'ok');
    expect(d.window('192.0.2.1')).toBe(4);
    for (let i = 0; i < 100; i++) d.report('192.0.2.1', 'ok');
    expect(d.window('192.0.2.1')).toBe(8);
    // Another address keeps its own window.
    expect(d.window('192.0.2.2')).toBe(2);
  });

  it('shrinks at the first refusal of a window, and not below one', () => {
    const { d } = clocked({ initial: 4 });
    d.report('192.0.2.1', 'throttled');
    expect(d.window('192.0.2.1')).toBe(3);
    // Hysteresis: the next refusals of the same window do not shrink it again at once.
    d.report('192.0.2.1', 'throttled');
    d.report('192.0.2.1', 'throttled');
    expect(d.window('192.0.2.1')).toBe(3);
    for (let i = 0; i < 20; i++) d.report('192.0.2.1', 'throttled');
    expect(d.window('192.0.2.1')).toBe(1);
    expect(d.isDead('192.0.2.1')).toBe(false);
  });

  it('remembers an address whose whole window timed out as dead, for deadMs', () => {
    const { d, advance } = clocked();
    d.report('192.0.2.9', 'timeout');
    expect(d.isDead('192.0.2.9')).toBe(false);
    d.report('192.0.2.9', 'timeout');
    expect(d.isDead('192.0.2.9')).toBe(true);
    advance(59_000);
    expect(d.isDead('192.0.2.9')).toBe(true);
    advance(2_000);
    expect(d.isDead('192.0.2.9')).toBe(false);
  });

  it('forgets timeouts once the address answers', () => {
    const { d } = clocked();
    d.report('192.0.2.9', 'timeout');
    d.report('192.0.2.9', 'ok');
    d.report('192.0.2.9', 'timeout');
    expect(d.isDead('192.0.2.9')).toBe(false);
  });
});
