import { describe, expect, it } from 'vitest';
import { combineStatuses, reasonText, STATUS_LOOK } from './status';

describe('combineStatuses', () => {
  it('shows a bad address first, then "checking", then the weaker verdicts', () => {
    expect(combineStatuses(['deliverable', 'undeliverable', 'pending'])).toBe('undeliverable');
    expect(combineStatuses(['deliverable', 'pending'])).toBe('pending');
    expect(combineStatuses(['deliverable', 'risky', 'unknown'])).toBe('risky');
    expect(combineStatuses(['invalid', 'undeliverable'])).toBe('invalid');
    expect(combineStatuses(['deliverable'])).toBe('deliverable');
    expect(combineStatuses([])).toBeNull();
  });

  it('gives every status a label, an icon and a colour', () => {
    for (const look of Object.values(STATUS_LOOK)) {
      expect(look.labelKey).toMatch(/^content_status_/);
      expect(look.icon).not.toBe('');
      expect(look.color).toMatch(/^#[0-9a-f]{6}$/);
    }
    expect(reasonText('rejected_email')).toBe('rejected email');
    expect(reasonText(null)).toBe('');
  });
});
