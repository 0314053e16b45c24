// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

async function context() {
  const runtime: { id?: string } = { id: 'verimark-test' };
  vi.stubGlobal('chrome', { runtime });
  vi.stubGlobal('browser', undefined);
  vi.resetModules();
  const { ContentScriptContext } = await import('./context');
  return { ContentScriptContext, runtime };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ContentScriptContext', () => {
  it('a newer instance of the same script stops the older one, not itself nor other scripts', async () => {
    const { ContentScriptContext } = await context();
    const first = new ContentScriptContext('content');
    const other = new ContentScriptContext('other');
    expect(first.signal.aborted).toBe(false);
    const second = new ContentScriptContext('content');
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    expect(other.signal.aborted).toBe(false);
  });

  it('is invalid once the extension is gone (no runtime id), and its intervals stop', async () => {
    vi.useFakeTimers();
    const { ContentScriptContext, runtime } = await context();
    const ctx = new ContentScriptContext('content');
    const tick = vi.fn();
    ctx.setInterval(tick, 100);
    vi.advanceTimersByTime(250);
    expect(tick).toHaveBeenCalledTimes(2);
    expect(ctx.isInvalid).toBe(false);
    runtime.id = undefined;
    vi.advanceTimersByTime(500);
    expect(tick).toHaveBeenCalledTimes(2);
    expect(ctx.isInvalid).toBe(true);
    expect(ctx.signal.aborted).toBe(true);
  });
});
