/**
 * The extension's API client against the REAL service (server/main.ts as a child process, with
 * a real DNS and SMTP server on loopback).
 */

import { ERRORS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../lib/api/client';
import type { ApiError } from '../../lib/api/errors';
import { apiError } from '../../lib/api/testing/api-error';
import { readVerdict } from '../../lib/api/verdict';
import { pollSingleTask } from '../../lib/background/verify/single-poller';
import { lastLine, type RunningService, startService } from '../../server/testing/service';

let service: RunningService;
let api: ApiClient;

async function verify(client: ApiClient, email: string) {
  const { taskId } = await client.verifySingle(email, 'catch_all');
  const data = await pollSingleTask(client, taskId, {
    deadline: Date.now() + 20_000,
    initialDelayMs: 100,
    maxDelayMs: 500,
  });
  if (!data) throw new Error('the task did not complete');
  return readVerdict(data, email);
}

async function waitForFile(client: ApiClient, fileId: string) {
  const deadline = Date.now() + 25_000;
  while (Date.now() < deadline) {
    const status = await client.bulkStatus(fileId);
    if (status.status === 'completed' || status.status === 'failed') return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the file did not complete');
}

beforeAll(async () => {
  service = await startService();
  api = createApiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
});
afterAll(async () => {
  await service?.stop();
});

describe('single verification', () => {
  it('follows a task to a deliverable verdict, reading every field of the real result', async () => {
    const view = await verify(api, 'alice@deliverable.test');
    expect(view).toMatchObject({
      email: 'alice@deliverable.test',
      status: 'deliverable',
      reason: 'accepted_email',
    });
    expect(view.checks).toMatchObject({ syntax: true, mx_found: true });
    expect(view.extra).toEqual({});
  });

  it('reports a rejected mailbox as undeliverable', async () => {
    const view = await verify(api, 'nobody@rejecting.test');
    expect([view.status, view.reason]).toEqual(['undeliverable', 'rejected_email']);
  });

  it('answers an unknown task with not_found', async () => {
    expect((await apiError(api.singleStatus('no-such-task'))).kind).toBe('not_found');
  });
});

describe('bulk verification', () => {
  it('uploads a CSV, polls it to completion and gets a working signed download URL', async () => {
    const csv = 'Name,Work Email\nAlice,alice@deliverable.test\nNobody,nobody@rejecting.test\n';
    const fileName = `leads-${Date.now()}.csv`;
    const { fileId } = await api.verifyBulk({
      file: new Blob([csv], { type: 'text/csv' }),
      fileName,
      emailColumn: 'Work Email',
      mode: 'non_catch_all',
    });
    const status = await waitForFile(api, fileId);
    expect(status.status).toBe('completed');
    expect(status.download_url).not.toBe('');

    const download = await fetch(new URL(status.download_url, service.baseUrl));
    expect(download.status).toBe(200);
    const text = await download.text();
    expect(text.split(/\r?\n/)[0]).toContain('verification_status');
    expect(text).toContain('alice@deliverable.test');

    const list = await api.listFiles({ page: 1, pageSize: 10, search: fileName.slice(0, 12) });
    const record = list.files.find((file) => file._id === fileId);
    expect(record).toMatchObject({ file_name: fileName, state: 'completed' });
    expect(record?.meta_data.deliverable).toBe(1);
    expect(record?.meta_data.undeliverable).toBe(1);
  });

  it('rejects a CSV without the email column with the service message', async () => {
    const err = await apiError(
      api.verifyBulk({ file: new Blob(['Name\nAlice\n']), fileName: 'no-email.csv' }),
    );
    expect([err.kind, err.message]).toEqual(['bad_request', ERRORS.missingEmailColumn]);
  });

  it('lists files with pagination', async () => {
    const list = await api.listFiles({ page: 1, pageSize: 1 });
    expect(list).toMatchObject({ page: 1, pageSize: 1 });
    expect(list.files.length).toBeLessThanOrEqual(1);
    expect(list.totalCount).toBeGreaterThanOrEqual(1);
  });
});

describe('account (our service only)', () => {
  it("reads the key's balance and follows spending", async () => {
    const key = lastLine(await service.admin(['create-key', '--credits', '5', '--label', 'acct']));
    const client = createApiClient({ baseUrl: service.baseUrl, apiKey: key });
    expect(await client.getAccount()).toEqual({ credits: 5, expires_at: null, label: 'acct' });
    await verify(client, 'alice@deliverable.test');
    expect((await client.getAccount())?.credits).toBe(4);
  });

  it('answers an expired key too, and refuses a wrong one', async () => {
    const key = lastLine(
      await service.admin(['create-key', '--credits', '2', '--expires', '2020-01-01T00:00:00.000Z']),
    );
    const expired = createApiClient({ baseUrl: service.baseUrl, apiKey: key });
    expect(await expired.getAccount()).toMatchObject({ credits: 2, expires_at: '2020-01-01T00:00:00.000Z' });
    const bad = createApiClient({ baseUrl: service.baseUrl, apiKey: 'wrong-key' });
    expect((await apiError(bad.getAccount())).kind).toBe('invalid_key');
  });
});

describe('errors of the real service', () => {
  it('401 for a wrong key', async () => {
    const bad = createApiClient({ baseUrl: service.baseUrl, apiKey: 'wrong-key' });
    const err = await apiError(bad.listFiles({ page: 1, pageSize: 1 }));
    expect([err.kind, err.status]).toEqual(['invalid_key', 401]);
  });

  it('402 for a key without credits', async () => {
    const key = lastLine(await service.admin(['create-key', '--credits', '0', '--label', 'broke']));
    const broke = createApiClient({ baseUrl: service.baseUrl, apiKey: key });
    const err = await apiError(broke.verifySingle('alice@deliverable.test', 'catch_all'));
    expect([err.kind, err.status]).toEqual(['payment_required', 402]);
  });

  it('402 for an expired subscription', async () => {
    const key = lastLine(
      await service.admin([
        'create-key',
        '--credits',
        '10',
        '--expires',
        '2020-01-01T00:00:00.000Z',
        '--label',
        'old',
      ]),
    );
    const expired = createApiClient({ baseUrl: service.baseUrl, apiKey: key });
    expect((await apiError(expired.verifySingle('alice@deliverable.test', 'catch_all'))).kind).toBe(
      'payment_required',
    );
  });
});

describe('rate limiting', () => {
  let limited: RunningService;
  beforeAll(async () => {
    limited = await startService({ env: { RATE_LIMIT_PER_MIN: '2' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('429 with Retry-After, surfaced as rate_limited without blind retries of credit-spending calls', async () => {
    const client = createApiClient({
      baseUrl: limited.baseUrl,
      apiKey: limited.apiKey,
      retry: { attempts: 1 },
    });
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => client.listFiles({ page: 1, pageSize: 1 })),
    );
    const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as ApiError] : []));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]?.kind).toBe('rate_limited');
    expect(errors[0]?.retryAfterSeconds).toBeGreaterThan(0);

    const err = await apiError(client.verifySingle('alice@deliverable.test', 'catch_all'));
    expect(err.kind).toBe('rate_limited');
  });
});
