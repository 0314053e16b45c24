/**
 * GET /healthz answers 503 once the database does not answer; the /docs page renders the OpenAPI
 * texts escaped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/sqlite/db';
import { queueDepth } from '../store/sqlite/queue-depth';
import { renderApiDocs } from './api-docs-page';
import { ServiceMetrics } from './metrics';
import { opsRoutes } from './ops-routes';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The ops routes on their own over real HTTP, with a real SQLite database that can be closed. */
async function opsServer() {
  const dir = await mkdtemp(join(tmpdir(), 'verimark-ops-'));
  const db = openDatabase(dir);
  const app = Fastify({ logger: false });
  opsRoutes(app, {
    metrics: new ServiceMetrics(() => queueDepth(db)),
    pingDatabase: () => db.prepare('SELECT 1').get(),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await app.close();
    if (db.open) db.close();
    await rm(dir, { recursive: true, force: true });
  });
  return { db, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describe('GET /healthz', () => {
  it('answers 503 once the database no longer answers', async () => {
    const { db, url } = await opsServer();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    db.close();
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 503, message: 'Database unavailable' });
  });
});

describe('renderApiDocs', () => {
  it('renders every text of the document escaped, never as markup', () => {
    const html = renderApiDocs({
      info: { title: 'T <b>', version: '1', description: '"x" & <script>alert(1)</script>' },
      paths: {
        '/a<i>': {
          get: { summary: '<img src=x onerror=alert(1)>', responses: { 200: { description: 'ok' } } },
        },
      },
      components: { schemas: { S: { type: 'string', description: '</pre><script>' } } },
    });
    expect(html).not.toMatch(/<script|<img|<i>|<b>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<code>GET /a&lt;i&gt;</code>');
    expect(html).toContain('&quot;x&quot; &amp; &lt;script&gt;');
  });
});
