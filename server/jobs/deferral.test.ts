/** Which bulk rows are tried again later, and when (./deferral.ts). */
import { untestedChecks } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import type { VerificationResult } from '../engine/types';
import { nextState, retryClass } from './deferral';

const POLICY = { greylistWindowMs: 300_000, backoffMs: 30_000 };
const NOW = 1_000_000;

function result(part: Partial<VerificationResult>): VerificationResult {
  return {
    email: 'a@example.test',
    status: 'unknown',
    reason: 'greylisted',
    checks: { ...untestedChecks(), smtp_connected: true },
    mx_host: 'mx.example.test',
    provider: null,
    suggestion: null,
    ...part,
  };
}

describe('retryClass', () => {
  it('tells "not now" from final answers', () => {
    expect(retryClass(result({}))).toBe('greylist');
    expect(retryClass(result({ reason: 'blocked' }))).toBe('policy');
    expect(retryClass(result({ reason: 'smtp_unreachable' }))).toBe('throttled');
    // A refused TCP connection (nothing listens) and a DNS failure are final.
    const refused = result({
      reason: 'smtp_unreachable',
      checks: { ...untestedChecks(), smtp_connected: false },
    });
    expect(retryClass(refused)).toBeNull();
    expect(
      retryClass(result({ reason: 'smtp_unreachable', mx_host: null, checks: untestedChecks() })),
    ).toBeNull();
    expect(retryClass(result({ reason: 'smtp_timeout' }))).toBeNull();
    expect(retryClass(result({ status: 'deliverable', reason: 'accepted_email' }))).toBeNull();
  });
});

describe('nextState', () => {
  it('waits out the greylisting window, then twice it, then keeps the answer', () => {
    const first = nextState(result({}), 0, POLICY, NOW);
    expect(first.tries).toBe(1);
    expect(first.due).toBeGreaterThanOrEqual(NOW + 300_000);
    expect(first.due).toBeLessThanOrEqual(NOW + 450_000);
    const second = nextState(result({}), 1, POLICY, NOW);
    expect(second.due).toBeGreaterThanOrEqual(NOW + 600_000);
    expect(nextState(result({}), 2, POLICY, NOW).due).toBeUndefined();
  });

  it('backs off a connection limit, doubling, spread out at random', () => {
    const limited = result({ reason: 'smtp_unreachable' });
    const dues = Array.from({ length: 50 }, () => (nextState(limited, 2, POLICY, NOW).due ?? 0) - NOW);
    for (const due of dues) {
      expect(due).toBeGreaterThanOrEqual(120_000);
      expect(due).toBeLessThanOrEqual(180_000);
    }
    expect(new Set(dues).size).toBeGreaterThan(10);
    expect(nextState(limited, 4, POLICY, NOW).due).toBeUndefined();
  });

  it('tries a refusal about us once more, alone on a fresh connection', () => {
    const blocked = result({ reason: 'blocked' });
    expect(nextState(blocked, 0, POLICY, NOW)).toMatchObject({ tries: 1, alone: true });
    expect(nextState(blocked, 1, POLICY, NOW).due).toBeUndefined();
  });

  it('keeps final answers final', () => {
    const done = nextState(result({ status: 'undeliverable', reason: 'rejected_email' }), 0, POLICY, NOW);
    expect(done.due).toBeUndefined();
  });
});
