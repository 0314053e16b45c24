// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { hrefWatcher } from './navigation';

describe('hrefWatcher', () => {
  it('ignores forged navigation events and reports each real change of the URL once', () => {
    let calls = 0;
    const check = hrefWatcher(window, () => calls++);
    window.dispatchEvent(new PopStateEvent('popstate', { state: {} }));
    window.dispatchEvent(new CustomEvent('wxt:locationchange'));
    history.pushState({}, '', window.location.href); // the same URL: no navigation
    check();
    expect(calls).toBe(0);
    history.pushState({}, '', '?page=2');
    check();
    check();
    expect(calls).toBe(1);
    history.pushState({}, '', '#inbox/2');
    check();
    expect(calls).toBe(2);
  });
});
