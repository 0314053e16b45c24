/**
 * How marks look on the page: one status per element, and a shape and colour per status.
 * Every status has its own shape (never colour alone), and every colour keeps at least 3:1
 * contrast against white and against dark page backgrounds (#202124, #1e293b): see status.test.ts.
 */
import type { PageStatus } from '@/lib/shared/views';

export type { PageStatus };

// The element shows the most important status among its addresses: a bad address first,
// then "still checking", then what needs the user, and deliverable only when all are.
const PRECEDENCE: readonly PageStatus[] = [
  'invalid',
  'undeliverable',
  'pending',
  'error',
  'risky',
  'unverified',
  'unknown',
  'deliverable',
];

/** The element's status so far (`best`, null for none yet) combined with one more address's. */
export function combineStatuses(best: PageStatus | null, status: PageStatus): PageStatus {
  return best === null || PRECEDENCE.indexOf(status) < PRECEDENCE.indexOf(best) ? status : best;
}

/** An element's status from all its addresses' statuses (null for none). */
export function statusOfAll(statuses: readonly PageStatus[]): PageStatus | null {
  return statuses.reduce<PageStatus | null>(combineStatuses, null);
}

/**
 * A status's glyph (drawn by badge/sheet.ts): a filled polygon or rounded square as a small SVG,
 * or a ring (on a badge, its own round border).
 */
interface StatusLook {
  color: string;
  /** A filled glyph's polygon, as SVG points on a 100 × 100 view box; null for a rounded square. */
  points: string | null;
  /** Ring glyphs: the ring's line (`solid`, `dashed`); null for filled glyphs. */
  ring: 'solid' | 'dashed' | null;
}

const CHECK = '0,55 16,39 38,61 84,12 100,28 38,92';
const CROSS = '18,0 50,32 82,0 100,18 68,50 100,82 82,100 50,68 18,100 0,82 32,50 0,18';
const TRIANGLE = '50,0 100,100 0,100';
const DIAMOND = '50,0 100,50 50,100 0,50';
const OCTAGON = '30,0 70,0 100,30 100,70 70,100 30,100 0,70 0,30';

const filled = (color: string, points: string | null): StatusLook => ({ color, points, ring: null });

export const STATUS_LOOK: Record<PageStatus, StatusLook> = {
  deliverable: filled('#1a8f3c', CHECK),
  undeliverable: filled('#e0353b', CROSS),
  risky: filled('#c97a00', TRIANGLE),
  unknown: filled('#7c8798', DIAMOND),
  invalid: filled('#db2777', OCTAGON),
  error: filled('#8b5cf6', null),
  pending: { color: '#0891b2', points: null, ring: 'solid' },
  unverified: { color: '#2f7fd6', points: null, ring: 'dashed' },
};
