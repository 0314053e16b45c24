/**
 * One SMTP connection for several recipients of the same MX address (./session-share.ts),
 * against a scripted SMTP server on loopback: RSET between recipients, a cap per connection,
 * the per-host slot held for the connection's life, and a fresh connection of the row's own on
 * anything but a definite answer (4xx, a refused RSET, a drop). A row served on another's
 * connection takes no slot of its own: slots are taken only by rows that open a connection.
 */
import { describe, expect, it } from 'vitest';
import { testEngineConfig } from '../testing/engine-config';
import { type ScriptedSmtp, useScriptedSmtp } from '../testing/scripted-smtp';
import { createResolver } from './dns-route';
import { createLimits, type Limits } from './limits';
import { SessionShare } from './session-share';
import { type ProbeContext, type ProbeOutcome, probe } from './smtp-probe';
import { openSmtpSession } from './smtp-session';

const scripted = useScriptedSmtp();
const config = testEngineConfig();

/** Probes `locals`@example.com at once through one MX host (one slot) answered by `server`. */
function probeAll(server: ScriptedSmtp, locals: string[], perConnection: number): Promise<ProbeOutcome[]> {
  let open = 0;
  let peak = 0;
  let slots = 0;
  const inner = createLimits(4, 1);
  // Counts the slots held: a task given to the limits runs holding the host's slot.
  const limits: Limits = {
    run: (host, task, cancel) =>
      inner.run(
        host,
        () => {
          slots++;
          return task();
        },
        cancel,
      ),
  };
  const ctx: ProbeContext = {
    config,
    resolver: createResolver([], 500),
    limits,
    logger: {
      warn: () => {},
      debug: (details) => {
        const { event } = details as { event?: string };
        if (event === 'smtp-open') peak = Math.max(peak, ++open);
        if (event === 'smtp-close') open--;
      },
    },
    open: () => openSmtpSession('127.0.0.1', server.port, 1000),
    share: new SessionShare(perConnection),
  };
  const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
  const hosts = [{ name: '10.0.0.1', priority: 10 }];
  const all = Promise.all(
    locals.map((local) =>
      probe(ctx, { email: `${local}@example.com`, domain: 'example.com', hosts, catchAllMode: false, scope }),
    ),
  );
  return all.then((outcomes) => {
    expect(peak).toBe(1); // never more connections than the host's one slot
    // A slot per connection opened; none for the rows served on another row's connection.
    expect(slots).toBe(server.peers.length);
    return outcomes;
  });
}

const codes = (outcomes: ProbeOutcome[]) =>
  outcomes.map((o) => (o.kind === 'answered' || o.kind === 'transient' ? o.reply.code : o.kind));
const verbs = (server: ScriptedSmtp) => server.lines.map((l) => l.split(/[ :]/)[0]);

describe('a connection shared by rows of the same MX address', () => {
  it('asks each waiting recipient after RSET on the one connection, each with its own answer', async () => {
    const server = await scripted('220 mx ESMTP\r\n', (line) =>
      line === 'QUIT'
        ? '221 bye\r\n'
        : line.startsWith('RCPT TO:<b@')
          ? '550 5.1.1 no such user\r\n'
          : '250 ok\r\n',
    );
    expect(codes(await probeAll(server, ['a', 'b', 'c'], 20))).toEqual([250, 550, 250]);
    expect(server.peers).toHaveLength(1);
    expect(verbs(server)).toEqual([
      'EHLO',
      'MAIL',
      'RCPT',
      'RSET',
      'MAIL',
      'RCPT',
      'RSET',
      'MAIL',
      'RCPT',
      'QUIT',
    ]);
    expect(server.lines.filter((l) => l.startsWith('RCPT'))).toEqual([
      'RCPT TO:<a@example.com>',
      'RCPT TO:<b@example.com>',
      'RCPT TO:<c@example.com>',
    ]);
  });

  it('serves at most perConnection recipients, then opens a new connection', async () => {
    const server = await scripted('220 mx ESMTP\r\n', (line) =>
      line === 'QUIT' ? '221 bye\r\n' : '250 ok\r\n',
    );
    expect(codes(await probeAll(server, ['a', 'b', 'c', 'd', 'e'], 2))).toEqual([250, 250, 250, 250, 250]);
    expect(server.peers).toHaveLength(3);
    expect(verbs(server).filter((v) => v === 'EHLO')).toHaveLength(3);
  });

  it('probes on a fresh connection when the shared one answers 452 (too many recipients)', async () => {
    let rcpts = 0;
    const server = await scripted('220 mx ESMTP\r\n', (line) => {
      if (line === 'QUIT') return '221 bye\r\n';
      if (!line.startsWith('RCPT')) return '250 ok\r\n';
      rcpts++;
      return rcpts === 2 ? '452 4.5.3 Error: too many recipients\r\n' : '250 2.1.5 Ok\r\n';
    });
    expect(codes(await probeAll(server, ['a', 'b', 'c'], 20))).toEqual([250, 250, 250]);
    // The shared connection ended at b's 452: b and c each on a connection of their own.
    expect(server.peers).toHaveLength(3);
    // b's 452 was not its answer: b was asked again on a connection of its own.
    expect(server.lines.filter((l) => l === 'RCPT TO:<b@example.com>')).toHaveLength(2);
  });

  it('probes on a fresh connection when RSET is refused or the connection drops', async () => {
    let rsets = 0;
    const server = await scripted('220 mx ESMTP\r\n', (line) => {
      if (line === 'QUIT') return '221 bye\r\n';
      if (line === 'RSET') return ++rsets === 1 ? '421 4.7.0 closing\r\n' : null;
      return '250 ok\r\n';
    });
    expect(codes(await probeAll(server, ['a', 'b', 'c', 'd'], 20))).toEqual([250, 250, 250, 250]);
    for (const local of ['a', 'b', 'c', 'd'])
      expect(server.lines.filter((l) => l === `RCPT TO:<${local}@example.com>`)).toHaveLength(1);
  });
});

describe('a row whose slot could not be had', () => {
  it('leaves the queue, so no later connection asks for it', async () => {
    const share = new SessionShare(20);
    const limits = createLimits(4, 1);
    // As when the shared slot table fails (a database error, or closed at shutdown).
    limits.run = () => Promise.reject(new Error('host slots closed'));
    const ctx: ProbeContext = {
      config,
      resolver: createResolver([], 500),
      limits,
      logger: { warn: () => {}, debug: () => {} },
      open: () => Promise.reject(new Error('no connection is made')),
      share,
    };
    const scope = { routes: new Map(), addresses: new Map(), catchAll: new Map() };
    const hosts = [{ name: '10.0.0.1', priority: 10 }];
    await probe(ctx, {
      email: 'a@example.com',
      domain: 'example.com',
      hosts,
      catchAllMode: false,
      scope,
    }).catch(() => null);
    expect(share.waiting('10.0.0.1', '10.0.0.1')).toBe(false);
  });
});
