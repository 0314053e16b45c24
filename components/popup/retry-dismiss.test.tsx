// @vitest-environment happy-dom
/** The popup's one Retry/Dismiss pair: each button named with its item, each calling its own handler. */
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { RetryDismiss } from './retry-dismiss';
import { JobRow } from './upload/job-row';

const labels = () =>
  [...document.querySelectorAll('button')].map((b) => [b.textContent, b.getAttribute('aria-label')]);

describe('RetryDismiss', () => {
  afterEach(() => render(null, document.body));

  it('names the item on both buttons and calls each handler', () => {
    const calls: string[] = [];
    act(() =>
      render(
        <RetryDismiss
          name="leads.csv"
          onRetry={() => calls.push('retry')}
          onDismiss={() => calls.push('dismiss')}
        />,
        document.body,
      ),
    );
    expect(labels()).toEqual([
      ['Retry', 'Retry leads.csv'],
      ['Dismiss', 'Dismiss leads.csv'],
    ]);
    act(() => {
      for (const b of document.querySelectorAll('button')) b.click();
    });
    expect(calls).toEqual(['retry', 'dismiss']);
  });

  it('is what a failed upload offers, named with its file', () => {
    const job = {
      id: 'j1',
      fileId: null,
      fileName: 'march.csv',
      phase: 'failed' as const,
      progress: null,
      error: 'Insufficient credits',
      createdAt: Date.now(),
    };
    act(() =>
      render(<JobRow job={job} etaMs={null} onRetry={() => {}} onDismiss={() => {}} />, document.body),
    );
    expect(labels()).toEqual([
      ['Retry', 'Retry march.csv'],
      ['Dismiss', 'Dismiss march.csv'],
    ]);
  });
});
