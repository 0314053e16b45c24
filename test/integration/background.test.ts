/**
 * The background (WXT fake browser, fake-indexeddb) against the REAL service: verdicts,
 * credits spent once for concurrent asks, bulk upload to download, and Test connection.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { downloadResults } from '../../lib/background/bulk/downloads';
import { pollBulkJobs } from '../../lib/background/bulk/poll';
import { recoverInterruptedUploads, startBulkUpload } from '../../lib/background/bulk/upload';
import { testConnection } from '../../lib/background/settings/settings-handlers';
import { configure, resetBackground, until } from '../../lib/background/testing/setup';
import { singlePollTiming, verifyEmail } from '../../lib/background/verify/verify';
import { addJob, getJobs } from '../../lib/storage/jobs';
import { stageUpload } from '../../lib/storage/upload-blobs';
import { Api } from '../../server/testing/api';
import { lastLine, type RunningService, startService } from '../../server/testing/service';

let service: RunningService;

const balance = async () =>
  Number(lastLine(await service.admin(['add-credits', service.apiKey, '--credits', '0'])));

beforeAll(async () => {
  service = await startService();
  singlePollTiming.initialDelayMs = 100;
  singlePollTiming.maxDelayMs = 500;
});
afterAll(async () => {
  await service?.stop();
});
beforeEach(async () => {
  await resetBackground();
  await configure(service.baseUrl, service.apiKey);
});

describe('the background with the real service', () => {
  it('verifies an address once for concurrent asks, then serves it from the cache', async () => {
    const before = await balance();
    const views = await Promise.all([
      verifyEmail({ email: 'bob@deliverable.test' }),
      verifyEmail({ email: 'bob@DELIVERABLE.test' }),
    ]);
    expect(views.map((v) => v.status)).toEqual(['deliverable', 'deliverable']);
    expect(await verifyEmail({ email: 'bob@deliverable.test' })).toMatchObject({ cached: true });
    expect(await balance()).toBe(before - 1);
  });

  it('verifies an IDN address in punycode', async () => {
    const view = await verifyEmail({ email: 'info@Bücher.test' });
    expect(view).toMatchObject({ email: 'info@xn--bcher-kva.test', status: 'deliverable' });
  });

  it('uploads a stored CSV, follows it to completion, and downloads the results', async () => {
    const fileName = `bg-${Date.now()}.csv`;
    const blobKey = await stageUpload(new Blob(['Email\nalice@deliverable.test\nx@rejecting.test\n']));
    const { done } = await startBulkUpload({
      blobKey,
      fileName,
      emailColumn: 'Email',
      mode: 'catch_all',
    });
    await done;
    await until(async () => {
      await pollBulkJobs();
      const [job] = await getJobs();
      return job?.kind === 'bulk' && job.phase === 'completed';
    });
    const [job] = await getJobs();
    const download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 1);
    const result = await downloadResults({
      fileId: job?.kind === 'bulk' ? (job.fileId ?? '') : '',
      fileName,
    });
    expect(download).toHaveBeenCalledWith({
      url: result.url,
      filename: fileName.replace('.csv', '-verified.csv'),
    });
    const csv = await (await fetch(result.url)).text();
    expect(csv).toContain('x@rejecting.test');
    expect(Object.keys(await fakeBrowser.notifications.getAll())).toHaveLength(1);
  });

  it('after a worker stop mid-upload, follows the file the service did receive, without sending it again', async () => {
    const fileName = `cut-${Date.now()}.csv`;
    const startedAt = Date.now();
    const blobKey = await stageUpload(new Blob(['Email\nalice@deliverable.test\n']));
    await addJob({
      kind: 'bulk',
      id: 'bulk-cut',
      fileId: null,
      fileName,
      phase: 'uploading',
      progress: null,
      error: null,
      createdAt: startedAt,
      blobKey,
      emailColumn: 'Email',
      mode: 'catch_all',
      notified: false,
      updatedAt: startedAt,
    });
    // The request reached the service; its answer was lost with the worker.
    const api = new Api(service.baseUrl, service.apiKey);
    const sent = await api.upload('Email\nalice@deliverable.test\n', { fileName }, fileName);
    const fileId = sent.body.data.file_id;
    const before = await balance();

    await recoverInterruptedUploads();
    const [job] = await getJobs();
    expect(job).toMatchObject({ fileId, phase: 'queued' });
    await until(async () => {
      await pollBulkJobs();
      const [polled] = await getJobs();
      return polled?.kind === 'bulk' && polled.phase === 'completed';
    });
    expect(await balance()).toBe(before);
    const list = await api.get<{ data: { files: { file_name: string }[] } }>(
      `/verify/bulk/files?page=1&pageSize=10&search=${encodeURIComponent(fileName)}`,
    );
    expect(list.body.data.files.map((f) => f.file_name)).toEqual([fileName]);
  });

  it('tests the connection: OK, invalid key, payment required', async () => {
    // OK, with the balance the service tells (GET /account), which the options page shows.
    expect(await testConnection({})).toEqual({
      ok: true,
      account: { credits: await balance(), expiresAt: null, label: expect.any(String) },
    });
    expect(await testConnection({ apiKey: 'nope' })).toMatchObject({ ok: false, kind: 'invalid_key' });
    const expired = lastLine(
      await service.admin(['create-key', '--credits', '5', '--expires', '2020-01-01T00:00:00.000Z']),
    );
    expect(await testConnection({ apiKey: expired })).toMatchObject({ ok: false, kind: 'payment_required' });
  });
});
