// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { RecentLookups } from './recent-lookups';

describe('RecentLookups', () => {
  afterEach(() => render(null, document.body));

  it('lists a check the background keeps as pending, saying it will be sent when the service is back', () => {
    act(() =>
      render(
        <RecentLookups
          pending={[{ email: 'ann@example.com', mode: 'catch_all', queuedAt: Date.now() }]}
          lookups={[]}
          onSelect={() => {}}
        />,
        document.body,
      ),
    );
    const item = document.querySelector('[data-testid=pending-checks] li');
    expect(item?.getAttribute('data-status')).toBe('pending');
    expect(item?.textContent).toContain('ann@example.com');
    expect(item?.textContent).toContain('Will be sent when the service is back');
    expect(document.body.textContent).not.toContain('Addresses you verify appear here.');
  });
});
