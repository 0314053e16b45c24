import { describe, expect, it } from 'vitest';
import { readVerdict, verdictOf } from './verdict';

const NOW = Date.UTC(2026, 0, 1);
const checks = {
  syntax: true,
  mx_found: true,
  smtp_connected: true,
  catch_all: true,
  disposable: false,
  role_account: null,
};

describe('readVerdict with the reference service result', () => {
  it('reads every known field and leaves nothing in extra', () => {
    const view = readVerdict(
      {
        task_id: 't',
        processing_status: 'completed',
        email: 'A@Example.com',
        status: 'risky',
        reason: 'catch_all',
        mode: 'catch_all',
        checks,
        mx_host: 'mx.example.com',
        suggestion: null,
        credits_used: 1,
        credits_refunded: 0,
        verified_at: '2026-01-01T00:00:05.000Z',
      },
      'A@example.com',
      NOW,
    );
    expect(view).toEqual({
      email: 'A@example.com',
      status: 'risky',
      reason: 'catch_all',
      checks,
      mxHost: 'mx.example.com',
      suggestion: null,
      verifiedAt: NOW + 5000,
      cached: false,
      extra: {},
    });
  });

  it('reads the provider the service recognised, and nothing in extra when it is null', () => {
    const base = { status: 'deliverable', email: 'a@gmail.com' };
    expect(readVerdict({ ...base, provider: 'google' }, 'a@gmail.com', NOW).provider).toBe('google');
    const none = readVerdict({ ...base, provider: null }, 'a@gmail.com', NOW);
    expect(none.provider).toBeUndefined();
    expect(none.extra).toEqual({});
  });
});

describe('synonyms from other services', () => {
  const table: [unknown, string][] = [
    ['valid', 'deliverable'],
    ['OK', 'deliverable'],
    ['invalid', 'undeliverable'],
    ['bad', 'undeliverable'],
    ['catch-all', 'risky'],
    ['accept_all', 'risky'],
    ['Accept All', 'risky'],
    ['unknown', 'unknown'],
    [true, 'deliverable'],
  ];
  for (const [word, status] of table) {
    it(`${String(word)} → ${status}`, () => expect(verdictOf(word)).toBe(status));
  }
  it('does not take a processing word for a verdict', () => expect(verdictOf('completed')).toBeNull());

  it('finds the verdict in `result` or `verdict` when `status` is a processing state', () => {
    expect(readVerdict({ status: 'completed', result: 'invalid' }, 'a@example.com', NOW).status).toBe(
      'undeliverable',
    );
    expect(readVerdict({ verdict: 'valid' }, 'a@example.com', NOW).status).toBe('deliverable');
  });

  it('does not take a request status such as "ok" or true for the verdict when a clearer one is there', () => {
    expect(readVerdict({ status: 'ok', result: 'undeliverable' }, 'a@x.io', NOW).status).toBe(
      'undeliverable',
    );
    expect(readVerdict({ status: true, verdict: 'accept_all' }, 'a@x.io', NOW).status).toBe('risky');
    expect(readVerdict({ status: 'ok' }, 'a@x.io', NOW).status).toBe('deliverable');
  });

  it('reads a nested result object and top-level boolean flags', () => {
    const view = readVerdict(
      {
        processing_status: 'completed',
        result: { status: 'accept_all', sub_status: 'domain_accepts_all' },
        is_disposable: true,
      },
      'a@example.com',
      NOW,
    );
    expect([view.status, view.reason, view.checks.disposable]).toEqual(['risky', 'domain_accepts_all', true]);
  });
});

describe('unknown fields', () => {
  it('are kept raw in extra, and an unrecognised verdict is unknown', () => {
    const view = readVerdict({ status: 'weird', score: 42, provider: { name: 'x' } }, ' b@Example.com ', NOW);
    expect(view.status).toBe('unknown');
    expect(view.email).toBe('b@example.com');
    expect(view.extra).toEqual({ status: 'weird', score: 42, provider: { name: 'x' } });
    expect(view.verifiedAt).toBe(NOW);
  });
});

describe('the address', () => {
  it('is the one asked, even when the service echoes it differently (it is the cache key)', () => {
    const view = readVerdict({ email: 'ann@example.com', status: 'valid' }, ' Ann@Example.com', NOW);
    expect(view.email).toBe('Ann@example.com');
    expect(view.extra).toEqual({ email: 'ann@example.com' });
    expect(readVerdict({ email: 'Ann@EXAMPLE.com' }, 'Ann@example.com', NOW).extra).toEqual({});
  });
});

describe('odd shapes', () => {
  it('never throws on nulls, numbers and wrong types, and keeps what it cannot read', () => {
    const view = readVerdict(
      { status: null, result: 5, reason: 7, checks: 'yes', mx_host: ['mx'], verified_at: 1_767_225_600 },
      'a@example.com',
      NOW,
    );
    expect([view.status, view.reason, view.mxHost]).toEqual(['unknown', null, null]);
    expect(view.checks).toEqual({});
    expect(view.verifiedAt).toBe(1_767_225_600_000);
    expect(view.extra).toEqual({ status: null, result: 5, reason: 7, checks: 'yes', mx_host: ['mx'] });
  });

  it('reads `status` nested under `data.result`', () => {
    const view = readVerdict(
      { result: { status: 'undeliverable', reason: 'rejected_email' } },
      'a@x.io',
      NOW,
    );
    expect([view.status, view.reason]).toEqual(['undeliverable', 'rejected_email']);
  });
});
