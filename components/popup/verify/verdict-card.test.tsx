// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readVerdict } from '@/lib/api/verdict';
import type { VerdictView } from '@/lib/shared/views';
import { VerdictCard } from './verdict-card';

const verdict: VerdictView = {
  email: 'ada@gmial.com',
  status: 'undeliverable',
  reason: 'invalid_domain',
  checks: { syntax: true, mx_found: false, smtp_connected: null },
  mxHost: null,
  suggestion: 'ada@gmail.com',
  verifiedAt: Date.now() - 3 * 3_600_000,
  cached: true,
  extra: { sub_status: 'nxdomain' },
};

const text = (selector: string) => document.querySelector(selector)?.textContent ?? '';

describe('VerdictCard', () => {
  afterEach(() => render(null, document.body));

  it('shows status, reason in words, checks, unknown fields raw, and the age of a cached verdict', () => {
    act(() => render(<VerdictCard verdict={verdict} onSuggestion={() => {}} />, document.body));
    expect(text('.badge')).toBe('Undeliverable');
    expect(text('.verdict-reason')).toBe('The domain does not exist.');
    const checks = [...document.querySelectorAll('.check')].map((c) => c.textContent);
    expect(checks).toEqual([
      'Well formedyes',
      'Mail server foundno',
      'Server reachablenot tested',
      'sub_statusnxdomain',
    ]);
    expect(text('[data-testid=verdict-source]')).toBe('From the cache, verified 3 h ago. No credit spent.');
  });

  it('re-verifies the suggestion in one click', () => {
    const onSuggestion = vi.fn();
    act(() => render(<VerdictCard verdict={verdict} onSuggestion={onSuggestion} />, document.body));
    act(() => document.querySelector<HTMLButtonElement>('[data-testid=suggestion]')?.click());
    expect(onSuggestion).toHaveBeenCalledWith('ada@gmail.com');
  });

  it('says a locally decided invalid address cost nothing', () => {
    const invalid: VerdictView = {
      ...verdict,
      status: 'invalid',
      reason: 'invalid_syntax',
      suggestion: null,
      cached: false,
    };
    act(() => render(<VerdictCard verdict={invalid} onSuggestion={() => {}} />, document.body));
    expect(text('.badge')).toBe('Invalid');
    expect(text('[data-testid=verdict-source]')).toMatch(/Checked on this device.*No credit spent/);
    expect(document.querySelector('[data-testid=suggestion]')).toBeNull();
  });
});

describe('VerdictCard, honest flags and next steps', () => {
  afterEach(() => render(null, document.body));
  const checksText = () => [...document.querySelectorAll('.check')].map((c) => c.textContent);

  it('does not state server checks as facts on a domain that does not exist, and says both for a listed one', () => {
    const gmial: VerdictView = {
      ...verdict,
      email: 'someone@gmial.com',
      checks: {
        syntax: true,
        mx_found: false,
        smtp_connected: false,
        catch_all: false,
        disposable: true,
        role_account: false,
        free_provider: null,
      },
      extra: {},
    };
    act(() => render(<VerdictCard verdict={gmial} onSuggestion={() => {}} />, document.body));
    expect(checksText()).toEqual([
      'Well formedyes',
      'Mail server foundno',
      'Server reachablenot tested',
      'Catch-allnot tested',
      'Disposableon the list, but the domain does not exist',
      'Role accountno',
      'Free providernot tested',
    ]);
    expect(document.querySelector('.suggestion')?.textContent).toBe('Did you mean ada@gmail.com?');
  });

  it('says an unknown verdict was refunded and when to try again', () => {
    const unknown: VerdictView = { ...verdict, status: 'unknown', reason: 'greylisted', suggestion: null };
    act(() => render(<VerdictCard verdict={unknown} onSuggestion={() => {}} />, document.body));
    expect(text('[data-testid=verdict-advice]')).toBe(
      'The credit was refunded. The mail server asked to wait: try again in about 15 minutes.',
    );
  });

  it('copies a summary and verifies again on request', async () => {
    const onAgain = vi.fn();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    act(() =>
      render(<VerdictCard verdict={verdict} onSuggestion={() => {}} onAgain={onAgain} />, document.body),
    );
    const buttons = [...document.querySelectorAll('button')];
    await act(async () => buttons.find((b) => b.textContent === 'Copy')?.click());
    expect(writeText).toHaveBeenCalledWith(
      'ada@gmial.com: Undeliverable — The domain does not exist. — Did you mean ada@gmail.com?',
    );
    expect(buttons.find((b) => b.textContent === 'Copied')).toBeDefined();
    act(() => buttons.find((b) => b.textContent === 'Verify again')?.click());
    expect(onAgain).toHaveBeenCalledOnce();
  });

  it('shows the other fields of a result whatever their types: string flags, numbers, nulls, the MX host', () => {
    // The commercial service's recorded live shape: flags as strings, no `checks` object.
    const view = readVerdict(
      {
        task_id: 't1',
        processing_status: 'completed',
        email: 'gina@good.test',
        email_status: 'risky',
        is_catch_all: 'true',
        is_disposable: 'FALSE',
        mx_host: 'mx1.good.test',
        provider: 'Private',
        score: 42,
        last_seen: null,
        tags: ['a', 'b'],
      },
      'gina@good.test',
    );
    act(() => render(<VerdictCard verdict={view} onSuggestion={() => {}} />, document.body));
    const rows = [...document.querySelectorAll('.check')].map((c) => [
      c.querySelector('dt')?.textContent,
      c.querySelector('dd')?.textContent,
    ]);
    expect(rows).toEqual([
      ['Catch-all', 'yes'],
      ['Disposable', 'no'],
      ['Mail server', 'mx1.good.test'],
      ['Mail provider', 'Private'],
      ['score', '42'],
      ['last_seen', 'null'],
      ['tags', '["a","b"]'],
    ]);
  });

  it('shows the fields even when the result has no checks at all', () => {
    const bare: VerdictView = { ...verdict, checks: {}, mxHost: 'mx.example.com', extra: { risk: 0.5 } };
    act(() => render(<VerdictCard verdict={bare} onSuggestion={() => {}} />, document.body));
    expect(document.querySelector('[data-testid=verdict-fields]')?.textContent).toBe(
      'Mail servermx.example.comrisk0.5',
    );
  });
});
