import { describe, expect, it } from 'vitest';
import { type PageStatus, STATUS_LOOK, statusOfAll } from './status';

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

describe('combineStatuses, statusOfAll', () => {
  it('shows a bad address first, then "checking", then the weaker verdicts', () => {
    expect(statusOfAll(['deliverable', 'undeliverable', 'pending'])).toBe('undeliverable');
    expect(statusOfAll(['deliverable', 'pending'])).toBe('pending');
    expect(statusOfAll(['deliverable', 'risky', 'unknown'])).toBe('risky');
    expect(statusOfAll(['deliverable', 'unverified'])).toBe('unverified');
    expect(statusOfAll(['unknown', 'unverified'])).toBe('unverified');
    expect(statusOfAll(['invalid', 'undeliverable'])).toBe('invalid');
    expect(statusOfAll(['deliverable'])).toBe('deliverable');
    expect(statusOfAll([])).toBeNull();
  });
});

describe('STATUS_LOOK', () => {
  const looks = Object.entries(STATUS_LOOK) as [PageStatus, (typeof STATUS_LOOK)[PageStatus]][];

  it('keeps every colour at 3:1 or more against light and dark pages', () => {
    for (const [status, look] of looks) {
      for (const page of ['#ffffff', '#f8fafc', '#202124', '#1e293b', '#000000']) {
        expect(contrast(look.color, page), `${status} on ${page}`).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('gives every status a shape of its own, not only a colour', () => {
    const shapes = looks.map(([, l]) => `${l.points}|${l.ring}`);
    expect(new Set(shapes).size).toBe(looks.length);
    expect(STATUS_LOOK.unverified.ring).toBe('dashed');
    expect(STATUS_LOOK.unknown.ring).toBeNull();
  });
});
