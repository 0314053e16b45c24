import { DESCRIPTIONS, PATHS } from '@verimark/contract';
import { get, set } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ok } from '@/lib/api/testing/scripted-server';
import { ensurePollAlarm, onPopupHeartbeat, POLL_ALARM } from '@/lib/background/core/poll-alarm';
import { bulkJob, countRequests, useFakeService } from '@/lib/background/testing/setup';
import { idbStore } from '@/lib/storage/idb';
import { addJob, type BulkJob, getJobs } from '@/lib/storage/jobs';
import { newUploadKey, stageUpload, takeUploadBlob } from '@/lib/storage/upload-blobs';
import { downloadResults, resultFileName } from './downloads';
import { pollBulkJobs } from './poll';
import { RECHECK_FOR_MS, recoverInterruptedUploads, startBulkUpload, sweepAbandonedUploads } from './upload';

const env = useFakeService();

const bulkJobs = async () => (await getJobs()).filter((job): job is BulkJob => job.kind === 'bulk');
const notifications = async () =>
  Object.values(fakeBrowser.notifications.getAllCreateOptions()) as { title: string; message: string }[];

let lastKey = '';

async function uploaded(): Promise<BulkJob> {
  lastKey = await stageUpload(new Blob(['Name,E-mail\nAnn,ann@example.com\n'], { type: 'text/csv' }));
  const { view, done } = await startBulkUpload({
    blobKey: lastKey,
    fileName: 'leads.csv',
    emailColumn: 'E-mail',
    mode: 'non_catch_all',
  });
  expect(view.phase).toBe('uploading');
  await done;
  const [job] = await bulkJobs();
  if (!job) throw new Error('no job');
  return job;
}

describe('startBulkUpload', () => {
  it('uploads the Blob the popup stored, with all form fields, then forgets the Blob', async () => {
    const job = await uploaded();
    const form = env.service.state.uploads[0];
    expect([form?.get('fileName'), form?.get('emailColumn'), form?.get('mode')]).toEqual([
      'leads.csv',
      'E-mail',
      'non_catch_all',
    ]);
    const file = form?.get('file');
    expect(file instanceof Blob ? await file.text() : null).toBe('Name,E-mail\nAnn,ann@example.com\n');
    expect(job).toMatchObject({ fileId: 'file-1', phase: 'queued', error: null });
    expect(await takeUploadBlob(lastKey)).toBeUndefined();
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toMatchObject({ periodInMinutes: 0.5 });
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
  });

  it('records a refused upload as failed with its typed error, and never re-sends it', async () => {
    env.service.state.override[PATHS.bulk] = {
      status: 402,
      body: { error: 402, message: 'Insufficient credits' },
    };
    const job = await uploaded();
    expect(job).toMatchObject({
      phase: 'failed',
      error: 'Insufficient credits',
      errorKind: 'payment_required',
    });
    expect(countRequests(env.server.requests, PATHS.bulk)).toBe(1);
    expect((await notifications())[0]?.title).toBe('Bulk verification failed');
  });

  it('fails an upload whose Blob is missing without calling the service', async () => {
    const { done } = await startBulkUpload({
      blobKey: newUploadKey(),
      fileName: 'x.csv',
      emailColumn: '',
      mode: 'catch_all',
    });
    await done;
    expect((await bulkJobs())[0]?.phase).toBe('failed');
    expect(env.server.requests).toHaveLength(0);
  });

  it('refuses a key that names no staged upload without recording a job', async () => {
    for (const blobKey of ['blob-1', 'secrets', 'upload:', `upload:zz:${'x'.repeat(36)}`]) {
      await expect(
        startBulkUpload({ blobKey, fileName: 'x.csv', emailColumn: '', mode: 'catch_all' }),
      ).rejects.toThrow('The file to upload is gone: choose it again');
    }
    expect(await bulkJobs()).toEqual([]);
  });

  it('refuses a staged file that a job already uploads (a second click must not pay twice)', async () => {
    const blobKey = await stageUpload(new Blob(['Email\na@b.test\n']));
    const first = await startBulkUpload({ blobKey, fileName: 'x.csv', emailColumn: '', mode: 'catch_all' });
    await expect(
      startBulkUpload({ blobKey, fileName: 'x.csv', emailColumn: '', mode: 'catch_all' }),
    ).rejects.toThrow(/already being uploaded/);
    await first.done;
    expect(countRequests(env.server.requests, PATHS.bulk)).toBe(1);
    expect(await bulkJobs()).toHaveLength(1);
  });

  it('sweeps files chosen but never uploaded once they are old, and keeps those a job still needs', async () => {
    const now = Date.now();
    const hour = 60 * 60 * 1000;
    const abandoned = await stageUpload(new Blob(['a']), now - 7 * hour);
    const recent = await stageUpload(new Blob(['b']), now - hour);
    const needed = newUploadKey(now - 9 * hour);
    await set(needed, new Blob(['c']), idbStore('uploads'));
    await set('foreign-key', new Blob(['d']), idbStore('uploads'));
    // Where builds before the uploads store kept them: idb-keyval's default store.
    const legacy = newUploadKey(now - 60_000);
    await set(legacy, new Blob(['e']));
    await addJob(
      bulkJob({
        id: 'b-up',
        fileId: null,
        fileName: 'up.csv',
        phase: 'uploading',
        progress: null,
        blobKey: needed,
      }),
    );
    expect(await sweepAbandonedUploads(now)).toBe(3);
    expect(await takeUploadBlob(abandoned)).toBeUndefined();
    expect(await takeUploadBlob('foreign-key')).toBeUndefined();
    expect(await get(legacy)).toBeUndefined();
    expect(await takeUploadBlob(recent)).toBeInstanceOf(Blob);
    expect(await takeUploadBlob(needed)).toBeInstanceOf(Blob);
  });
});

describe('recoverInterruptedUploads (after a worker stop during an upload)', () => {
  const interrupted = async (createdAt: number, fileName = 'old.csv', id = 'b-old') => {
    const blobKey = await stageUpload(new Blob(['Email\na@b.test\n']));
    await addJob(
      bulkJob({
        id,
        fileName,
        fileId: null,
        phase: 'uploading',
        progress: null,
        createdAt,
        updatedAt: createdAt,
        blobKey,
      }),
    );
    return blobKey;
  };
  const record = (id: string, fileName: string, createdAt: number | null) => ({
    _id: id,
    file_name: fileName,
    state: 'processing',
    ...(createdAt === null ? {} : { createdAt: new Date(createdAt).toISOString() }),
  });

  /** The first round finds the upload cut off; the one after RECHECK_FOR_MS gives up. */
  const giveUp = async (now: number) => {
    const failed = async () => (await bulkJobs()).filter((job) => job.phase === 'failed').length;
    const before = await failed();
    await recoverInterruptedUploads(now);
    expect(await failed()).toBe(before);
    await recoverInterruptedUploads(now + RECHECK_FOR_MS);
  };

  it('waits while the service may still be reading the file, and follows it once listed', async () => {
    const now = Date.now();
    const blobKey = await interrupted(now);
    await recoverInterruptedUploads(now);
    await recoverInterruptedUploads(now + RECHECK_FOR_MS - 1);
    expect((await bulkJobs())[0]).toMatchObject({ phase: 'uploading', interruptedAt: now, error: null });
    expect(await takeUploadBlob(blobKey)).toBeInstanceOf(Blob);
    expect(await notifications()).toEqual([]);
    env.service.state.files = [record('file-late', 'old.csv', now + 30_000)];
    await recoverInterruptedUploads(now + RECHECK_FOR_MS);
    expect((await bulkJobs())[0]).toMatchObject({ fileId: 'file-late', phase: 'queued' });
    expect(countRequests(env.server.requests, PATHS.bulk)).toBe(0);
  });

  it('follows the file that reached the service, as if the upload had answered', async () => {
    const now = Date.now();
    const blobKey = await interrupted(now);
    env.service.state.files = [
      record('file-new', 'old.csv', now + 2_000),
      record('file-yesterday', 'old.csv', now - 86_400_000),
      record('file-other', 'other.csv', now + 1_000),
    ];
    await recoverInterruptedUploads();
    expect((await bulkJobs())[0]).toMatchObject({ fileId: 'file-new', phase: 'queued', error: null });
    expect(countRequests(env.server.requests, PATHS.bulk)).toBe(0);
    expect(await takeUploadBlob(blobKey)).toBeUndefined();
    expect(await notifications()).toEqual([]);
    // Polling takes it from there.
    await pollBulkJobs();
    expect((await bulkJobs())[0]?.phase).toBe('completed');
  });

  it('says to upload again when the list shows the file never arrived, and never re-sends it', async () => {
    const now = Date.now();
    await interrupted(now);
    // Files of that name from before the upload began (beyond clock skew) are somebody else's.
    env.service.state.files = [
      record('file-earlier', 'old.csv', now - 5 * 60_000),
      record('file-yesterday', 'old.csv', now - 86_400_000),
    ];
    await giveUp(now);
    const [job] = await bulkJobs();
    expect(job).toMatchObject({ phase: 'failed', errorKind: 'network' });
    expect(job?.error).toMatch(/before the service received the file\. Upload it again/);
    expect(countRequests(env.server.requests, PATHS.bulk)).toBe(0);
    expect((await notifications()).map((n) => n.message)).toEqual([
      expect.stringMatching(/^old\.csv could not be verified: The upload was interrupted/),
    ]);
  });

  it('says to check the file list when the list cannot tell', async () => {
    const now = Date.now();
    // Two candidates: which one is ours?
    await interrupted(now);
    env.service.state.files = [record('f1', 'old.csv', now + 1_000), record('f2', 'old.csv', now + 2_000)];
    await giveUp(now);
    expect((await bulkJobs())[0]?.error).toMatch(/Check the file list/);
  });

  it('does not take a file another job already follows, nor one without a date', async () => {
    const now = Date.now();
    await addJob(
      bulkJob({ id: 'b-done', fileId: 'f1', fileName: 'old.csv', phase: 'processing', progress: 10 }),
    );
    await interrupted(now, 'old.csv', 'b-a');
    env.service.state.files = [record('f1', 'old.csv', now + 1_000)];
    await giveUp(now);
    expect((await bulkJobs()).find((j) => j.id === 'b-a')?.error).toMatch(/Upload it again/);

    await interrupted(now, 'undated.csv', 'b-b');
    env.service.state.files = [record('f9', 'undated.csv', null)];
    await giveUp(now);
    expect((await bulkJobs()).find((j) => j.id === 'b-b')?.error).toMatch(/Check the file list/);
  });

  it('says to check the file list when the list it got is not the whole list', async () => {
    const now = Date.now();
    await interrupted(now);
    env.service.state.override[PATHS.bulkFiles] = ok(DESCRIPTIONS.bulkFiles, {
      files: [record('file-yesterday', 'old.csv', now - 86_400_000)],
      totalCount: 51,
      page: 1,
      pageSize: 50,
    });
    await giveUp(now);
    expect((await bulkJobs())[0]?.error).toMatch(/Check the file list/);
  });

  it('says to check the file list when the service cannot be asked', async () => {
    const now = Date.now();
    await interrupted(now);
    env.service.state.override[PATHS.bulkFiles] = {
      status: 401,
      body: { error: 401, message: 'Invalid API key' },
    };
    await giveUp(now);
    expect((await bulkJobs())[0]?.error).toMatch(/Check the file list/);
  });
});

describe('pollBulkJobs', () => {
  it('follows a file through processing to completion and notifies once', async () => {
    env.service.state.bulkStatuses = [
      { status: 'processing', download_url: '' },
      { status: 'completed', download_url: `${env.server.url}/downloads/file-1.csv?sig=1` },
    ];
    await uploaded();
    await pollBulkJobs();
    expect((await bulkJobs())[0]?.phase).toBe('processing');
    expect(await notifications()).toHaveLength(0);
    await Promise.all([pollBulkJobs(), pollBulkJobs()]);
    expect((await bulkJobs())[0]).toMatchObject({ phase: 'completed', progress: 1 });
    const shown = await notifications();
    expect(shown).toHaveLength(1);
    expect(shown[0]?.message).toContain('leads.csv');
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
    expect(await ensurePollAlarm()).toBe(false);
    expect(await fakeBrowser.alarms.get(POLL_ALARM)).toBeUndefined();
  });

  it('takes progress from the file record counts while processing', async () => {
    env.service.state.bulkStatuses = [{ status: 'processing', download_url: '' }];
    const record = {
      _id: 'file-1',
      file_name: 'leads.csv',
      state: 'processing',
      options: { credit_usage: 4, credit_refund: 0 },
      meta_data: { deliverable: 1, undeliverable: 1, unknown: 0, risky: 1 },
    };
    env.service.state.override[PATHS.bulkFiles] = {
      body: {
        message: { status: 'success', statusCode: 200, description: 'x' },
        data: { files: [record], totalCount: 1, page: 1, pageSize: 25 },
      },
    };
    await uploaded();
    await pollBulkJobs();
    expect((await bulkJobs())[0]).toMatchObject({ phase: 'processing', progress: 0.75 });
    expect(env.server.requests.find((req) => req.path === PATHS.bulkFiles)?.query.get('search')).toBe(
      'leads.csv',
    );
  });

  it('reports a failed file', async () => {
    env.service.state.bulkStatuses = [{ status: 'failed', download_url: '' }];
    await uploaded();
    await pollBulkJobs();
    expect((await bulkJobs())[0]?.phase).toBe('failed');
    expect((await notifications())[0]?.title).toBe('Bulk verification failed');
  });

  it('fails a file the service no longer knows (404), and says so once', async () => {
    env.service.state.override[PATHS.bulkStatus] = {
      status: 404,
      body: { error: 404, message: 'File not found' },
    };
    await uploaded();
    await Promise.all([pollBulkJobs(), pollBulkJobs()]);
    expect((await bulkJobs())[0]).toMatchObject({ phase: 'failed', errorKind: 'not_found' });
    expect((await notifications()).map((n) => n.message)).toEqual([
      'leads.csv could not be verified: File not found',
    ]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });

  it('keeps a file waiting through a 401 mid-poll, showing why, until the key works again', async () => {
    env.service.state.bulkStatuses = [{ status: 'processing', download_url: '' }];
    await uploaded();
    env.service.state.override[PATHS.bulkStatus] = {
      status: 401,
      body: { error: 401, message: 'Invalid API key' },
    };
    await pollBulkJobs();
    expect((await bulkJobs())[0]).toMatchObject({
      phase: 'queued',
      errorKind: 'invalid_key',
      error: 'Invalid API key',
    });
    delete env.service.state.override[PATHS.bulkStatus];
    await pollBulkJobs();
    expect((await bulkJobs())[0]).toMatchObject({ phase: 'processing', errorKind: null, error: null });
    expect(await notifications()).toEqual([]);
  });

  it('notifies once per file, even for two files of the same name finishing together', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await uploaded();
      const second = await startBulkUpload({
        blobKey: await stageUpload(new Blob(['Email\nb@example.com\n'])),
        fileName: 'leads.csv',
        emailColumn: '',
        mode: 'catch_all',
      });
      await second.done;
      await pollBulkJobs();
      expect((await bulkJobs()).map((job) => job.phase)).toEqual(['completed', 'completed']);
      expect(await notifications()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('polls on popup heartbeats at most once per interval', async () => {
    const poll = vi.fn(async () => undefined);
    expect(onPopupHeartbeat(poll, 1_000_000)).toBe(true);
    expect(onPopupHeartbeat(poll, 1_000_500)).toBe(false);
    expect(onPopupHeartbeat(poll, 1_002_000)).toBe(true);
    expect(poll).toHaveBeenCalledTimes(2);
  });
});

describe('downloadResults', () => {
  it('asks for a fresh signed URL and saves it as <name>-verified.csv', async () => {
    const url = `${env.server.url}/downloads/file-1.csv?expires=1&signature=abc`;
    env.service.state.bulkStatuses = [{ status: 'completed', download_url: url }];
    const download = vi.spyOn(fakeBrowser.downloads, 'download').mockImplementation(async () => 42);
    expect(await downloadResults({ fileId: 'file-1', fileName: 'leads.csv' })).toEqual({
      downloadId: 42,
      url,
    });
    expect(download).toHaveBeenCalledWith({ url, filename: 'leads-verified.csv' });
    expect(countRequests(env.server.requests, PATHS.bulkStatus)).toBe(1);
  });

  it('refuses while the results are not ready', async () => {
    env.service.state.bulkStatuses = [{ status: 'processing', download_url: '' }];
    await expect(downloadResults({ fileId: 'file-1', fileName: 'a.csv' })).rejects.toMatchObject({
      kind: 'bad_request',
    });
  });

  it('makes safe file names', () => {
    expect(resultFileName('Q3 leads.CSV')).toBe('Q3 leads-verified.csv');
    expect(resultFileName('../../etc/passwd')).toBe('_.._etc_passwd-verified.csv');
    expect(resultFileName('')).toBe('results-verified.csv');
  });
});
