/**
 * The start-up wait for the database (./pool.ts waitForDatabase): a compose stack may start the
 * service before Postgres listens, so a refused connection is retried, with a line saying so,
 * until the database comes up — on a real throwaway cluster behind a port that opens late.
 */
import { createServer, type Server, connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/free-port';
import { usePostgres } from '../../testing/postgres-suite';
import { openPostgresStore } from './store';

const pg = usePostgres();
const servers: Server[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((done) => s.close(done));
});

/** Starts forwarding `port` to the cluster's port, as a database that has just come up. */
function forward(port: number, to: number): Promise<void> {
  const server = createServer((client) => {
    const upstream = tcpConnect(to, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  servers.push(server);
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done()));
}

describe('openPostgresStore at start-up', () => {
  it('waits for a database that is not listening yet, saying so, then opens it', async () => {
    const real = new URL(pg.url());
    const port = await freePort();
    const late = new URL(real);
    late.port = String(port);
    const retries: string[] = [];
    const opening = openPostgresStore(late.href, 2, {
      deadlineMs: 30_000,
      onRetry: (message) => {
        retries.push(message);
        // Postgres "starts" once the service has been refused at least once.
        if (retries.length === 1) void forward(port, Number(real.port));
      },
    });
    const store = await opening;
    try {
      expect(retries.length).toBeGreaterThanOrEqual(1);
      expect(retries[0]).toMatch(
        new RegExp(
          `^Database 127\\.0\\.0\\.1:${port}/\\S+ not reachable yet \\(ECONNREFUSED\\): retrying in`,
        ),
      );
      expect(retries.join('\n')).not.toContain(real.password || 'postgres@');
      await store.ping();
      expect(await store.keys.count()).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('gives up after its deadline with an error naming the database', async () => {
    const port = await freePort();
    const retries: string[] = [];
    await expect(
      openPostgresStore(`postgres://verimark:secret@127.0.0.1:${port}/verimark`, 2, {
        deadlineMs: 1_500,
        onRetry: (message) => retries.push(message),
      }),
    ).rejects.toThrow(
      new RegExp(`^Database 127\\.0\\.0\\.1:${port}/verimark did not answer within 2 s \\(ECONNREFUSED\\)`),
    );
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.join('\n')).not.toContain('secret');
  });

  it('fails at once on an error that waiting cannot fix (a database that does not exist)', async () => {
    const missing = new URL(pg.url());
    missing.pathname = '/no_such_database';
    const retries: string[] = [];
    const started = Date.now();
    await expect(
      openPostgresStore(missing.href, 2, { deadlineMs: 30_000, onRetry: (m) => retries.push(m) }),
    ).rejects.toThrow(/no_such_database/);
    expect(retries).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
