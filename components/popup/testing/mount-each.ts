/** Mounting a component tree for each test of a file, under fake timers. */
import { render, type VNode } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * For a test file: before each test, fake timers, `reset()`, then `tree()` rendered into
 * document.body; after it, the tree unmounted and real timers back.
 */
export function mountEachTest(tree: () => VNode, reset: () => void = () => {}): void {
  beforeEach(() => {
    vi.useFakeTimers();
    reset();
    act(() => render(tree(), document.body));
  });
  afterEach(() => {
    act(() => render(null, document.body));
    vi.useRealTimers();
  });
}
