/**
 * Delete from the Files list, in the background (WXT fake browser, fake-indexeddb): against the
 * REAL service, which offers `DELETE /verify/bulk/files/{id}`, and against services that do not
 * (405, or a 404 that is not the contract's `File not found`), where Delete is not offered.
 */
import { PATHS } from '@verimark/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { fail, ok, startScriptedServer } from '../../lib/api/testing/scripted-server';
import {
  DELETE_ALARM,
  deleteTiming,
  fileDeleteOffered,
  listFileDeletes,
  scheduleFileDelete,
  sendDueFileDeletes,
  undoFileDelete,
} from '../../lib/background/bulk/file-delete';
import { onAlarm } from '../../lib/background/main';
import { bulkJob, configure, resetBackground, until } from '../../lib/background/testing/setup';
import { addJob, getJobs } from '../../lib/storage/jobs';
import { Api } from '../../server/testing/api';
import { type RunningService, startService } from '../../server/testing/service';

let service: RunningService;
let api: Api;

beforeAll(async () => {
  service = await startService();
  api = new Api(service.baseUrl, service.apiKey);
});
afterAll(async () => {
  await service?.stop();
});
beforeEach(async () => {
  deleteTiming.undoMs = 8_000;
  await resetBackground();
});

/** Uploads a one-address file straight to the service; resolves with its id. */
async function uploaded(fileName: string): Promise<string> {
  const sent = await api.upload('Email\nalice@deliverable.test\n', { fileName }, fileName);
  expect(sent.status).toBe(200);
  return sent.body.data.file_id;
}

const listed = async (fileName: string) =>
  (
    await api.get<{ data: { files: { _id: string }[] } }>(
      `${PATHS.bulkFiles}?page=1&pageSize=10&search=${encodeURIComponent(fileName)}`,
    )
  ).body.data.files.map((file) => file._id);

describe('Delete with the real service', () => {
  beforeEach(() => configure(service.baseUrl, service.apiKey));

  it('is offered: the probe finds the route', async () => {
    expect(await fileDeleteOffered()).toEqual({ offered: true });
  });

  it('waits out the undo window, then deletes the file and what this browser kept of it', async () => {
    const fileName = `del-${Date.now()}.csv`;
    const fileId = await uploaded(fileName);
    await addJob(bulkJob({ id: 'bulk-del', fileId, fileName, phase: 'completed' }));
    const now = Date.now();

    expect(await scheduleFileDelete({ fileId, fileName }, now)).toEqual([
      { fileId, dueAt: now + deleteTiming.undoMs },
    ]);
    expect(await fakeBrowser.alarms.get(DELETE_ALARM)).toBeDefined();
    await sendDueFileDeletes(now + deleteTiming.undoMs - 1);
    expect(await listed(fileName)).toEqual([fileId]);

    await sendDueFileDeletes(now + deleteTiming.undoMs);
    expect(await listed(fileName)).toEqual([]);
    expect(await getJobs()).toEqual([]);
    expect(await listFileDeletes()).toEqual([]);
    expect(await fakeBrowser.alarms.get(DELETE_ALARM)).toBeUndefined();
  });

  it('keeps the file when Undo comes within the window', async () => {
    const fileName = `undo-${Date.now()}.csv`;
    const fileId = await uploaded(fileName);
    const now = Date.now();
    await scheduleFileDelete({ fileId, fileName }, now);
    expect(await undoFileDelete({ fileId })).toEqual({ undone: true });
    await sendDueFileDeletes(now + deleteTiming.undoMs);
    expect(await listed(fileName)).toEqual([fileId]);
    expect(await undoFileDelete({ fileId })).toEqual({ undone: false });
  });

  it('sends on its own once the window ends (the timer), with no popup to ask', async () => {
    deleteTiming.undoMs = 200;
    const fileName = `timer-${Date.now()}.csv`;
    const fileId = await uploaded(fileName);
    await scheduleFileDelete({ fileId, fileName });
    await until(async () => (await listed(fileName)).length === 0);
    expect(await listFileDeletes()).toEqual([]);
  });

  it('sends a due delete when the alarm wakes a worker that lost its timer', async () => {
    const fileName = `alarm-${Date.now()}.csv`;
    const fileId = await uploaded(fileName);
    // As the worker that scheduled it left it: due already, its timer gone with the worker.
    await scheduleFileDelete({ fileId, fileName }, Date.now() - deleteTiming.undoMs);
    onAlarm({ name: DELETE_ALARM });
    await until(async () => (await listed(fileName)).length === 0);
  });

  it('is not sent with the key of a service saved since', async () => {
    const fileName = `moved-${Date.now()}.csv`;
    const fileId = await uploaded(fileName);
    const now = Date.now();
    await scheduleFileDelete({ fileId, fileName }, now);
    const other = await startScriptedServer(() => ok('File deleted successfully', {}));
    try {
      await configure(other.url, 'other-key');
      await sendDueFileDeletes(now + deleteTiming.undoMs);
      expect(other.requests).toEqual([]);
      expect(await listed(fileName)).toEqual([fileId]);
    } finally {
      await other.close();
    }
  });
});

describe('Delete with a service that does not offer it', () => {
  for (const [what, answer] of [
    ['405 Method Not Allowed', fail(405, 'Method Not Allowed')],
    ['a 404 that is not "File not found"', fail(404, 'Route DELETE:/verify/bulk/files/x not found')],
    ['a 404 page that is not JSON', { status: 404, text: '<h1>Not Found</h1>' }],
  ] as const) {
    it(`is not offered after ${what}, remembered for the service, and never scheduled`, async () => {
      const server = await startScriptedServer(() => answer);
      try {
        await configure(server.url, 'commercial-key');
        expect(await fileDeleteOffered()).toEqual({ offered: false });
        expect(await fileDeleteOffered()).toEqual({ offered: false });
        expect(server.requests.map((r) => r.method)).toEqual(['DELETE']);
        expect(await scheduleFileDelete({ fileId: 'f1', fileName: 'a.csv' })).toEqual([]);
        expect(server.requests).toHaveLength(1);
      } finally {
        await server.close();
      }
    });
  }

  it('drops a waiting delete, and offers Delete no more, when the send finds the route gone', async () => {
    let offers = true;
    const server = await startScriptedServer(() =>
      offers ? fail(404, 'File not found') : fail(405, 'Method Not Allowed'),
    );
    try {
      await configure(server.url, 'some-key');
      await addJob(bulkJob({ id: 'bulk-kept', fileId: 'f1', fileName: 'a.csv', phase: 'completed' }));
      const now = Date.now();
      await scheduleFileDelete({ fileId: 'f1', fileName: 'a.csv' }, now);
      offers = false;
      await sendDueFileDeletes(now + deleteTiming.undoMs);
      expect(await listFileDeletes()).toEqual([]);
      expect(await getJobs()).toHaveLength(1);
      expect(await fileDeleteOffered()).toEqual({ offered: false });
    } finally {
      await server.close();
    }
  });

  it('is not offered, and not remembered, while the service cannot be reached', async () => {
    const server = await startScriptedServer(() => fail(404, 'File not found'));
    const url = server.url;
    await server.close();
    await configure(url, 'some-key');
    expect(await fileDeleteOffered()).toEqual({ offered: false });
  });
});
