import { describe, expect, it } from 'vitest';
import { invalidVerdict, timedOutVerdict } from './local-verdict';

describe('local verdicts', () => {
  it('says an invalid address failed the syntax check, as a free, uncached verdict', () => {
    const view = invalidVerdict('not-an-address');
    expect(view).toMatchObject({
      email: 'not-an-address',
      status: 'invalid',
      reason: 'invalid_syntax',
      checks: { syntax: false },
      mxHost: null,
      suggestion: null,
      cached: false,
      extra: {},
    });
    expect(Math.abs(view.verifiedAt - Date.now())).toBeLessThan(60_000);
  });

  it('answers a task past its deadline as unknown, claiming no check', () => {
    expect(timedOutVerdict('a@example.com')).toMatchObject({
      email: 'a@example.com',
      status: 'unknown',
      reason: 'verification_timeout',
      checks: {},
    });
  });
});
