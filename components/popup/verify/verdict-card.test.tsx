// @vitest-environment happy-dom
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { VerdictView } from '@/lib/shared/messages';
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
