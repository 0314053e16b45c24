/**
 * Every verdict through POST /verify/single on both stores, the fields of a completed result, typo
 * suggestions, IDN addresses.
 */
import { type Envelope, ERRORS, PATHS, type SingleResult } from '@verimark/contract';
import { describe, expect, it } from 'vitest';
import { useService, waitFor } from '../testing/api';
import { FAKE_DOMAINS as D } from '../testing/fake-net';
import { TEST_STORES } from '../testing/postgres-suite';

describe.each(TEST_STORES)('on %s', (store) => {
  const svc = useService({ store });
  const { newKey, balance } = svc;

  describe('every verdict through /verify/single', () => {
    const cases: [string, string | undefined, SingleResult['status'], SingleResult['reason']][] = [
      [`alice@${D.deliverable}`, undefined, 'deliverable', 'accepted_email'],
      [`nobody@${D.deliverable}`, undefined, 'undeliverable', 'rejected_email'],
      [`anyone@${D.rejecting}`, undefined, 'undeliverable', 'rejected_email'],
      [`anyone@${D.catchAll}`, 'catch_all', 'risky', 'catch_all'],
      [`anyone@${D.catchAll}`, 'non_catch_all', 'deliverable', 'accepted_email'],
      [`anyone@${D.mailboxFull}`, undefined, 'risky', 'mailbox_full'],
      [`anyone@${D.mailboxFull452}`, undefined, 'risky', 'mailbox_full'],
      [`anyone@${D.disposable}`, undefined, 'risky', 'disposable'],
      [`anyone@${D.greylisted}`, undefined, 'unknown', 'greylisted'],
      [`alice@${D.greylistOnce}`, undefined, 'deliverable', 'accepted_email'],
      [`anyone@${D.tarpit}`, undefined, 'unknown', 'smtp_timeout'],
      [`anyone@${D.unreachable}`, undefined, 'unknown', 'smtp_unreachable'],
      [`anyone@${D.policy}`, undefined, 'unknown', 'blocked'],
      [`alice@${D.nextMx}`, undefined, 'deliverable', 'accepted_email'],
      [`alice@${D.aFallback}`, undefined, 'deliverable', 'accepted_email'],
      [`anyone@${D.noMail}`, undefined, 'undeliverable', 'no_mx'],
      [`anyone@${D.nullMx}`, undefined, 'undeliverable', 'no_mx'],
      [`anyone@${D.nonexistent}`, undefined, 'undeliverable', 'invalid_domain'],
      ['not an address', undefined, 'undeliverable', 'invalid_syntax'],
    ];

    it.each(cases)('%s (%s) → %s / %s', async (email, mode, status, reason) => {
      const result = await svc.api.verifyNow(email, mode);
      expect(result).toMatchObject({ processing_status: 'completed', status, reason });
      expect(result.mode).toBe(mode ?? 'catch_all');
      expect(result.credits_used).toBe(1);
      expect(result.credits_refunded).toBe(status === 'unknown' ? 1 : 0);
    });

    it('returns every documented field of a completed result', async () => {
      const result = await svc.api.verifyNow(`Info@${D.freeProvider.toUpperCase()}`);
      expect(Object.keys(result).sort()).toEqual(
        [
          'checks',
          'credits_refunded',
          'credits_used',
          'email',
          'mode',
          'mx_host',
          'processing_status',
          'provider',
          'reason',
          'status',
          'suggestion',
          'task_id',
          'verified_at',
        ].sort(),
      );
      expect(result.email).toBe(`Info@${D.freeProvider}`);
      expect(result.checks).toEqual({
        syntax: true,
        mx_found: true,
        smtp_connected: true,
        catch_all: expect.any(Boolean),
        disposable: false,
        role_account: true,
        free_provider: true,
      });
      expect(result.mx_host).toEqual(expect.any(String));
      expect(result.verified_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('suggests a fix for a likely typo', async () => {
      const result = await svc.api.verifyNow('alice@gmial.com');
      expect(result.suggestion).toBe('alice@gmail.com');
    });

    it('verifies an IDN address through punycode', async () => {
      const result = await svc.api.verifyNow(`alice@${D.unicode}`);
      expect(result).toMatchObject({ status: 'deliverable', email: `alice@${D.unicodeAscii}` });
    });
  });

  describe('single tasks', () => {
    it('answers pending, then completed, with the contract texts', async () => {
      const queued = await svc.api.post<Envelope<{ task_id: string }>>(PATHS.single, {
        email: `alice@${D.deliverable}`,
        mode: 'catch_all',
      });
      expect(queued.status).toBe(200);
      expect(queued.body.message).toEqual({
        status: 'success',
        statusCode: 200,
        description: 'Email added to queue successfully',
      });
      const status = await svc.api.post<Envelope<SingleResult>>(PATHS.singleStatus, {
        task_id: queued.body.data.task_id,
      });
      expect(status.status).toBe(200);
      expect(status.body.message.description).toBe('Email task status fetched successfully');
      expect(['pending', 'completed']).toContain(status.body.data.processing_status);
      expect(status.body.data.task_id).toBe(queued.body.data.task_id);
    });

    it('keeps a pending task pending until the probe finishes', async () => {
      const queued = await svc.api.post<Envelope<{ task_id: string }>>(PATHS.single, {
        email: `x@${D.tarpit}`,
      });
      const first = await svc.api.post<Envelope<SingleResult>>(PATHS.singleStatus, {
        task_id: queued.body.data.task_id,
      });
      expect(first.body.data).toEqual({ task_id: queued.body.data.task_id, processing_status: 'pending' });
    });

    it('hides other keys’ tasks and unknown ids behind 404', async () => {
      const queued = await svc.api.post<Envelope<{ task_id: string }>>(PATHS.single, {
        email: `alice@${D.deliverable}`,
      });
      const other = await newKey(5);
      const foreign = await other.post(PATHS.singleStatus, { task_id: queued.body.data.task_id });
      expect(foreign).toMatchObject({ status: 404, body: { error: 404, message: ERRORS.taskNotFound } });
      const unknown = await svc.api.post(PATHS.singleStatus, { task_id: 'ffffffffffffffffffffffff' });
      expect(unknown).toMatchObject({ status: 404, body: { error: 404, message: ERRORS.taskNotFound } });
    });
  });

  describe('credits', () => {
    it('takes one credit per task and refunds unknown verdicts', async () => {
      const key = await newKey(3);
      await key.verifyNow(`alice@${D.deliverable}`);
      expect(await balance(key)).toBe(2);
      await key.verifyNow(`x@${D.unreachable}`);
      expect(await balance(key)).toBe(2);
    });

    it('never overdraws under concurrent requests', async () => {
      const key = await newKey(7);
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) => key.post(PATHS.single, { email: `user${i}@${D.rejecting}` })),
      );
      const accepted = replies.filter((r) => r.status === 200);
      const refused = replies.filter((r) => r.status === 402);
      expect(accepted).toHaveLength(7);
      expect(refused).toHaveLength(33);
      for (const r of refused) expect(r.body).toEqual({ error: 402, message: ERRORS.insufficientCredits });
      expect(await balance(key)).toBe(0);
    });

    it('refunds every unknown verdict exactly once under concurrency', async () => {
      const key = await newKey(10);
      const replies = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          key.post<Envelope<{ task_id: string }>>(PATHS.single, { email: `u${i}@${D.unreachable}` }),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
      const results = await Promise.all(
        replies.map((r) =>
          waitFor(async () => {
            const s = await key.post<Envelope<SingleResult>>(PATHS.singleStatus, {
              task_id: r.body.data.task_id,
            });
            return s.body.data.processing_status === 'completed' ? s.body.data : null;
          }),
        ),
      );
      expect(results.map((r) => r.credits_refunded)).toEqual(Array(10).fill(1));
      expect(await balance(key)).toBe(10);
    });

    it('402s when the balance is empty or the subscription expired', async () => {
      const empty = await newKey(0);
      expect(await empty.post(PATHS.single, { email: `alice@${D.deliverable}` })).toMatchObject({
        status: 402,
        body: { error: 402, message: ERRORS.insufficientCredits },
      });
      const expired = await newKey(100, ['--expires', '2020-01-01T00:00:00Z']);
      for (const reply of [
        await expired.post(PATHS.single, { email: `alice@${D.deliverable}` }),
        await expired.post(PATHS.singleStatus, { task_id: 'x' }),
        await expired.get(`${PATHS.bulkFiles}?page=1&pageSize=10`),
      ]) {
        expect(reply).toMatchObject({ status: 402, body: { error: 402, message: ERRORS.paymentRequired } });
      }
      expect(await balance(expired)).toBe(100);
    });
  });
});
