/**
 * The SMTP conversation against scripted servers: HELO fallback, multi-line replies, refusing
 * greetings, dropped connections.
 */
import { describe, expect, it } from 'vitest';
import { testEngineConfig } from '../testing/engine-config';
import { useScriptedSmtp } from '../testing/scripted-smtp';
import { createResolver } from './dns-route';
import { createLimits } from './limits';
import { probe } from './smtp-probe';

const scripted = useScriptedSmtp();

const silent = { debug: () => {}, warn: () => {} };

/** Runs the real probe against a scripted server on 127.0.0.1 (an IP literal needs no DNS). */
function probeScripted(port: number, catchAllMode = false) {
  const ctx = {
    config: testEngineConfig({ smtpPort: port }),
    resolver: createResolver([], 500),
    limits: createLimits(2, 1),
    logger: silent,
  };
  const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
  const hosts = [{ name: '127.0.0.1', priority: 0 }];
  return probe(ctx, { email: 'alice@example.com', domain: 'example.com', hosts, catchAllMode, scope });
}

describe('SMTP conversation', () => {
  it('falls back to HELO when EHLO is refused, and reads multi-line greetings', async () => {
    const server = await scripted('220-old.example\r\n220 ready\r\n', (line) =>
      line.startsWith('EHLO')
        ? '502 5.5.2 Command not recognized\r\n'
        : line === 'QUIT'
          ? '221 bye\r\n'
          : '250 ok\r\n',
    );
    const outcome = await probeScripted(server.port);
    expect(outcome).toMatchObject({ kind: 'answered', reply: { code: 250 } });
    expect(server.lines).toEqual([
      'EHLO verimark.test',
      'HELO verimark.test',
      'MAIL FROM:<probe@verimark.test>',
      'RCPT TO:<alice@example.com>',
      'QUIT',
    ]);
  });

  it('reads multi-line EHLO and RCPT replies', async () => {
    const server = await scripted('220 ready\r\n', (line) =>
      line.startsWith('EHLO')
        ? '250-hi\r\n250-SIZE 1000\r\n250 8BITMIME\r\n'
        : line.startsWith('RCPT')
          ? '550-5.1.1 The email account that you tried to reach\r\n550 5.1.1 does not exist.\r\n'
          : '250 ok\r\n',
    );
    const outcome = await probeScripted(server.port);
    expect(outcome).toMatchObject({ kind: 'answered', reply: { code: 550, enhanced: '5.1.1' } });
  });

  it('reads a 554 greeting as a refusal about us and a 421 greeting as transient, once no MX is left', async () => {
    const refusing = await scripted('554 5.7.1 go away\r\n', () => '221 bye\r\n');
    expect(await probeScripted(refusing.port)).toMatchObject({
      kind: 'refused',
      reason: 'blocked',
      reply: { code: 554 },
    });
    const busy = await scripted('421 4.3.2 busy\r\n', () => '221 bye\r\n');
    expect(await probeScripted(busy.port)).toMatchObject({ kind: 'transient', reply: { code: 421 } });
  });

  it('reconnects once when the server drops the connection mid-dialogue, then gives up', async () => {
    const server = await scripted('220 ready\r\n', (line) => (line.startsWith('MAIL') ? null : '250 ok\r\n'));
    expect(await probeScripted(server.port)).toMatchObject({
      kind: 'failed',
      reason: 'smtp_error',
      connected: true,
    });
    expect(server.lines.filter((l) => l.startsWith('MAIL'))).toHaveLength(2);
  });

  it('gets the answer on the reconnection when only the first conversation is dropped', async () => {
    let drops = 1;
    const server = await scripted('220 ready\r\n', (line) => {
      if (line.startsWith('MAIL') && drops > 0) {
        drops--;
        return null;
      }
      return line === 'QUIT' ? '221 bye\r\n' : '250 ok\r\n';
    });
    expect(await probeScripted(server.port)).toMatchObject({ kind: 'answered', reply: { code: 250 } });
    expect(server.lines.filter((l) => l.startsWith('EHLO'))).toHaveLength(2);
  });

  it('times out a silent command', async () => {
    const server = await scripted('220 ready\r\n', (line) => (line.startsWith('RCPT') ? '' : '250 ok\r\n'));
    expect(await probeScripted(server.port)).toMatchObject({
      kind: 'failed',
      reason: 'smtp_timeout',
      connected: true,
    });
  });

  it('sends nothing but the probe commands, and no DATA even in catch_all mode', async () => {
    const server = await scripted('220 ready\r\n', () => '250 ok\r\n');
    const outcome = await probeScripted(server.port, true);
    expect(outcome).toMatchObject({ kind: 'answered', catchAll: true });
    expect(server.lines.map((l) => l.split(/[ :]/)[0])).toEqual([
      'EHLO',
      'MAIL',
      'RCPT',
      'RSET',
      'MAIL',
      'RCPT',
      'QUIT',
    ]);
  });

  it('reports a closed port as unreachable', async () => {
    const server = await scripted('220 ready\r\n', () => '250 ok\r\n');
    await server.close();
    expect(await probeScripted(server.port)).toMatchObject({
      kind: 'failed',
      reason: 'smtp_unreachable',
      connected: false,
    });
  });
});
