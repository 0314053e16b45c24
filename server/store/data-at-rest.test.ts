/**
 * Data at rest on the SQLite store (docs/design.md §4 "On the open internet"), against the real
 * service over HTTP and the real admin CLI: what `DELETE /verify/bulk/files/{id}` and `purge`
 * remove cannot be found, byte for byte, in the database's files (`verimark.sqlite`, `-wal`,
 * `-shm`) nor in a backup taken afterwards, while what was kept can; the data directory, the
 * database and its backups are their owner's only (0700, 0600); a backup of a database written
 * every few milliseconds by another process finishes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Envelope, PATHS } from '@verimark/contract';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../testing/api';
import { FAKE_DOMAINS as D, type FakeNet, startFakeNet } from '../testing/fake-net';
import { type RunningService, startService } from '../testing/service';

const fileUrl = (id: string) => PATHS.bulkFile.replace('{file_id}', encodeURIComponent(id));
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** A file of `rows` rows whose local parts and notes all start with `marker`. */
function csv(marker: string, rows: number): string {
  const lines = ['Email,Notes'];
  for (let i = 0; i < rows; i++) {
    lines.push(`${marker}${i}@${D.catchAll},${marker}-note ${i} about this contact`);
  }
  return `${lines.join('\n')}\n`;
}

async function completedFile(api: Api, text: string): Promise<string> {
  const upload = await api.upload(text, { mode: 'non_catch_all' });
  expect(upload.status).toBe(200);
  const id = upload.body.data.file_id;
  expect((await api.waitForFile(id)).status).toBe('completed');
  // The results are read once, as a client would.
  const status = await api.fileStatus(id);
  expect((await fetch(status.body.data.download_url)).status).toBe(200);
  return id;
}

/** The database's files as they are on disk now, each searched for `marker`. */
function databaseHits(dataDir: string, marker: string): Record<string, number> {
  const hits: Record<string, number> = {};
  for (const name of readdirSync(dataDir).filter((n) => n.startsWith('verimark.sqlite'))) {
    hits[name] = countIn(join(dataDir, name), marker);
  }
  return hits;
}

function countIn(path: string, marker: string): number {
  const bytes = readFileSync(path);
  const needle = Buffer.from(marker);
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count++;
  return count;
}

const total = (hits: Record<string, number>) => Object.values(hits).reduce((a, b) => a + b, 0);

describe('deleted data on disk (SQLite)', () => {
  let net: FakeNet;
  let parent: string;
  let dataDir: string;
  let service: RunningService;

  beforeAll(async () => {
    net = await startFakeNet();
    parent = await mkdtemp(join(tmpdir(), 'verimark-at-rest-'));
    // A data directory the service creates itself.
    dataDir = join(parent, 'data');
    service = await startService({ dataDir, fakeNet: net, env: { WORKER_POLL_MS: '50' } });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await net?.stop();
    await rm(parent, { recursive: true, force: true });
  });

  it('creates the data directory 0700 and the database, its WAL and its shared memory 0600', () => {
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'results'))).toBe(0o700);
    for (const name of ['verimark.sqlite', 'verimark.sqlite-wal', 'verimark.sqlite-shm', 'signing-secret']) {
      expect({ name, mode: modeOf(join(dataDir, name)) }).toEqual({ name, mode: 0o600 });
    }
  });

  it('leaves no byte of a deleted or purged file, nor of a purged task, in the database or a later backup', async () => {
    const api = service.apiKey;
    const client = new Api(service.baseUrl, api);
    const kept = await completedFile(client, csv('keptrow', 50));
    const deleted = await completedFile(client, csv('gonerow', 200));
    const purged = await completedFile(client, csv('purgedrow', 100));
    const task = await client.verifyNow(`purgedtask@${D.catchAll}`, 'non_catch_all');
    expect(task.status).toBe('deliverable');
    // Before: every marker is on disk (so the search below can find what is there).
    for (const marker of ['keptrow', 'gonerow', 'purgedrow', 'purgedtask']) {
      expect(total(databaseHits(dataDir, marker))).toBeGreaterThan(0);
    }

    const reply = await fetch(service.baseUrl + fileUrl(deleted), {
      method: 'DELETE',
      headers: { 'x-api-key': api },
    });
    expect(((await reply.json()) as Envelope<unknown>).data).toEqual({ file_id: deleted });
    // `purge` removes what finished before its cut-off: all but the kept file, aged to now.
    const db = new Database(join(dataDir, 'verimark.sqlite'));
    try {
      db.prepare("UPDATE bulk_files SET updated_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").run(purged);
      db.prepare(
        "UPDATE single_tasks SET updated_at = '2000-01-01T00:00:00.000Z' WHERE email LIKE 'purgedtask@%'",
      ).run();
    } finally {
      db.close();
    }
    expect(await service.admin(['purge', '--older-than', '1'])).toMatch(
      /Removed 1 file\(s\) and 1 single task/,
    );

    // The service is still running, its files open.
    for (const marker of ['gonerow', 'purgedrow', 'purgedtask']) {
      expect({ marker, total: total(databaseHits(dataDir, marker)) }).toEqual({ marker, total: 0 });
    }
    expect(total(databaseHits(dataDir, 'keptrow'))).toBeGreaterThan(0);
    expect((await client.fileStatus(kept)).body.data.status).toBe('completed');

    const backup = join(parent, 'after-delete.sqlite');
    expect(await service.admin(['backup', backup])).toContain('Backed up');
    expect(modeOf(backup)).toBe(0o600);
    for (const marker of ['gonerow', 'purgedrow', 'purgedtask']) {
      expect({ marker, hits: countIn(backup, marker) }).toEqual({ marker, hits: 0 });
    }
    expect(countIn(backup, 'keptrow')).toBeGreaterThan(0);
    const copy = new Database(backup, { readonly: true });
    try {
      expect(copy.prepare('SELECT COUNT(*) AS n FROM bulk_files WHERE id = ?').get(kept)).toEqual({ n: 1 });
    } finally {
      copy.close();
    }
  }, 120_000);
});

/** Rows of 512 KB in the busy database: about 48 MB. */
const FILLER_ROWS = 96;

describe('a backup of a busy database', () => {
  let net: FakeNet;
  let service: RunningService;

  beforeAll(async () => {
    net = await startFakeNet();
    service = await startService({ fakeNet: net });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await net?.stop();
  });

  it('finishes while another process writes every millisecond or two, and holds what was there when it began', async () => {
    // About 48 MB: SQLite's online backup copies it in several steps, and any write by another
    // connection between two steps sends it back to the start.
    const db = new Database(join(service.dataDir, 'verimark.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB NOT NULL)');
    const fill = db.prepare('INSERT INTO filler (data) VALUES (randomblob(?))');
    db.transaction(() => {
      for (let i = 0; i < FILLER_ROWS; i++) fill.run(512 * 1024);
    })();
    let writes = 0;
    const writer = setInterval(() => {
      fill.run(1024);
      writes++;
    }, 1);
    const target = join(service.dataDir, 'busy-backup.sqlite');
    try {
      expect(await service.admin(['backup', target])).toContain('Backed up');
    } finally {
      clearInterval(writer);
      db.close();
    }
    expect(writes).toBeGreaterThan(10);
    expect(modeOf(target)).toBe(0o600);
    const copy = new Database(target, { readonly: true });
    try {
      const rows = (copy.prepare('SELECT COUNT(*) AS n FROM filler').get() as { n: number }).n;
      expect(rows).toBeGreaterThanOrEqual(FILLER_ROWS);
      expect((copy.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n).toBeGreaterThan(
        0,
      );
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  }, 120_000);
});
