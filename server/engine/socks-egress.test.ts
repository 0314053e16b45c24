/**
 * SMTP_PROXY against a real SOCKS5 server on loopback (dante-server, server/testing/dante.ts):
 * the probe's connection really passes through it — the SMTP peer sees dante's outgoing
 * address, not ours, and dante logs the connection.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DANTE_EXTERNAL_IP, type Dante, startDante } from '../testing/dante';
import { testEngineConfig } from '../testing/engine-config';
import { type ScriptedSmtp, startScriptedSmtp } from '../testing/scripted-smtp';
import { createResolver } from './dns-route';
import { createConnector } from './engine';
import { createLimits } from './limits';
import { probe } from './smtp-probe';
import { openSmtpSession } from './smtp-session';
import { parseSocksProxy } from './socks-egress';

let dante: Dante | string;
let smtp: ScriptedSmtp;

beforeAll(async () => {
  dante = await startDante();
  if (typeof dante === 'string') console.warn(dante);
  smtp = await startScriptedSmtp(
    '220 peer.test ESMTP\r\n',
    (line) => (line === 'QUIT' ? '221 bye\r\n' : line.startsWith('RCPT') ? '250 2.1.5 Ok\r\n' : '250 ok\r\n'),
    { host: '0.0.0.0' },
  );
}, 120_000);

afterAll(async () => {
  await smtp.close();
  if (typeof dante !== 'string') await dante.stop();
});

const config = (proxy: string | null) =>
  testEngineConfig({ smtpPort: smtp.port, smtpTimeoutMs: 2000, smtpProxy: proxy, proxyTimeoutMs: 1000 });

function probeVia(proxy: string | null) {
  const cfg = config(proxy);
  const ctx = {
    config: cfg,
    resolver: createResolver([], 500),
    limits: createLimits(2, 1),
    logger: { debug: () => {}, warn: () => {} },
    connector: createConnector(cfg),
  };
  const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
  return probe(ctx, {
    email: 'alice@example.com',
    domain: 'example.com',
    hosts: [{ name: '127.0.0.1', priority: 10 }],
    catchAllMode: false,
    scope,
  });
}

describe('parseSocksProxy', () => {
  it('reads host, port and credentials', () => {
    expect(parseSocksProxy('socks5://probe:s%40cret@proxy.example:1080')).toEqual({
      host: 'proxy.example',
      port: 1080,
      userId: 'probe',
      password: 's@cret',
    });
    expect(() => parseSocksProxy('http://proxy.example:8080')).toThrow(/socks5/);
  });
});

describe('SMTP through a real SOCKS5 proxy (dante)', () => {
  it('probes through the proxy: the peer sees the proxy, dante logs the connection', async (ctx) => {
    if (typeof dante === 'string') return ctx.skip();
    const direct = await probeVia(null);
    expect(direct).toMatchObject({ kind: 'answered', reply: { code: 250 } });
    expect(smtp.peers.at(-1)).toBe('127.0.0.1');

    const proxied = await probeVia(dante.url);
    expect(proxied).toMatchObject({ kind: 'answered', reply: { code: 250 } });
    expect(smtp.peers.at(-1)).toBe(DANTE_EXTERNAL_IP);
    expect(await dante.log()).toContain(`127.0.0.1.${smtp.port}`);
  });

  it('fails as a connection failure (next MX, then unreachable) when the proxy does not answer', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const outcome = await probeVia(`socks5://127.0.0.1:${port}`);
      expect(outcome).toMatchObject({ kind: 'failed', reason: 'smtp_unreachable', connected: false });
      // The proxy's own connect timeout (1 s here), not the SMTP timeout, bounds the wait.
      expect(Date.now() - started).toBeLessThan(1900);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('ends a SOCKS handshake in progress when the verification deadline passes', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      // The proxy's own timeout is long (30 s): only the deadline can end the wait.
      const connector = createConnector({ ...config(`socks5://127.0.0.1:${port}`), proxyTimeoutMs: 30_000 });
      const deadline = AbortSignal.timeout(300);
      const started = Date.now();
      await expect(
        openSmtpSession('127.0.0.1', smtp.port, 30_000, connector, deadline),
      ).rejects.toMatchObject({
        kind: 'timeout',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reports a refused proxy connection as a connect failure', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const connector = createConnector(config(`socks5://127.0.0.1:${port}`));
    await expect(openSmtpSession('127.0.0.1', smtp.port, 1000, connector)).rejects.toMatchObject({
      kind: 'connect',
    });
  });
});
