/**
 * A hostile mail server that streams continuation lines (`220-…`) without ever finishing its
 * reply must not make the client grow memory until the timeout: the reply is capped in total
 * size and in lines, and the conversation ends with a protocol failure at once.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REPLY_BYTES, MAX_REPLY_LINES, openSmtpSession, ReplyParser, SmtpFailure } from './smtp-session';

describe('ReplyParser caps one reply', () => {
  it(`refuses a reply of more than ${MAX_REPLY_LINES} lines, however short they are`, () => {
    const parser = new ReplyParser();
    const push = () => {
      for (let i = 0; i <= MAX_REPLY_LINES; i++) parser.push('220-x\r\n');
    };
    expect(push).toThrow(SmtpFailure);
  });

  it(`refuses a reply of more than ${MAX_REPLY_BYTES} bytes, fed one line at a time`, () => {
    const parser = new ReplyParser();
    const line = `250-${'x'.repeat(1000)}\r\n`;
    let fed = 0;
    expect(() => {
      for (let i = 0; i < 200; i++) {
        parser.push(line);
        fed += line.length;
      }
    }).toThrow(/reply too long/);
    expect(fed).toBeLessThanOrEqual(MAX_REPLY_BYTES);
  });

  it('still reads a large chunk made of many complete, ordinary replies', () => {
    const parser = new ReplyParser();
    const replies = parser.push('250 ok\r\n'.repeat(10_000));
    expect(replies).toHaveLength(10_000);
  });

  it('accepts an EHLO reply of ordinary size', () => {
    const lines = ['250-mx.example', ...Array.from({ length: 30 }, (_, i) => `250-EXT${i}`), '250 SMTPUTF8'];
    expect(new ReplyParser().push(`${lines.join('\r\n')}\r\n`)).toHaveLength(1);
  });
});

const servers: net.Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))));

/** Streams `220-` lines in small writes for as long as the client stays connected. */
async function hostileServer(): Promise<{ port: number; sent: () => number }> {
  let sent = 0;
  const block = `220-${'x'.repeat(60)}\r\n`.repeat(60);
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    const pump = () => {
      if (socket.destroyed || socket.writableEnded) return;
      socket.write(block);
      sent += block.length;
      setImmediate(pump);
    };
    pump();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, sent: () => sent };
}

describe('openSmtpSession against a server streaming 220- lines', () => {
  it('gives up with a protocol failure long before the timeout', async () => {
    const server = await hostileServer();
    const started = Date.now();
    const failure = await openSmtpSession('127.0.0.1', server.port, 10_000).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SmtpFailure);
    expect(failure).toMatchObject({ kind: 'protocol' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
