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

  it('lists a kept check the service refused with the plain reason, what to do, Retry and Dismiss', () => {
    const retried: string[] = [];
    const dismissed: string[] = [];
    act(() =>
      render(
        <RecentLookups
          pending={[
            {
              email: 'bo@example.com',
              mode: 'catch_all',
              queuedAt: Date.now(),
              refused: { kind: 'payment_required', status: 402, message: 'Insufficient credits' },
            },
            { email: 'cy@example.com', mode: 'catch_all', queuedAt: Date.now() },
          ]}
          lookups={[]}
          onSelect={() => {}}
          onRetryKept={(check) => retried.push(check.email)}
          onDismissKept={(check) => dismissed.push(check.email)}
        />,
        document.body,
      ),
    );
    const [refused, waiting] = document.querySelectorAll('[data-testid=pending-checks] > li');
    expect(refused?.getAttribute('data-status')).toBe('refused');
    expect(refused?.textContent).toContain('bo@example.com');
    expect(refused?.querySelector('.refused-text')?.textContent).toBe(
      'Sent when the service was back, but not verified (no credit spent). Payment required: the subscription has expired or there are not enough credits. Add credits to this key, then choose Retry below.',
    );
    expect(waiting?.getAttribute('data-status')).toBe('pending');
    expect(waiting?.querySelector('button')).toBeNull();
    const button = (label: string) => {
      const found = refused?.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`);
      if (!found) throw new Error(`no button ${label}`);
      return found;
    };
    act(() => button('Retry bo@example.com').click());
    act(() => button('Dismiss bo@example.com').click());
    expect(retried).toEqual(['bo@example.com']);
    expect(dismissed).toEqual(['bo@example.com']);
  });

  it('says what to do about a refused key', () => {
    act(() =>
      render(
        <RecentLookups
          pending={[
            {
              email: 'di@example.com',
              mode: 'catch_all',
              queuedAt: Date.now(),
              refused: { kind: 'invalid_key', status: 401, message: 'Invalid API key' },
            },
          ]}
          lookups={[]}
          onSelect={() => {}}
        />,
        document.body,
      ),
    );
    expect(document.querySelector('.refused-text')?.textContent).toMatch(
      /^Sent when the service was back, but not verified \(no credit spent\)\. The service refused the API key\. Check the API key in Settings, then choose Retry below\.$/,
    );
  });
});
