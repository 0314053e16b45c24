/**
 * A real SMTP server (smtp-server on 127.0.0.1, random port) answering RCPT TO per recipient
 * domain, plus a silent "tarpit" listener on 127.0.0.3 with the same port. Every command each
 * connection sent is recorded, so tests can prove DATA is never sent and count probes.
 */
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { FAKE_DOMAINS as D, KNOWN_MAILBOXES, SMTP_IP, TARPIT_IP } from './fake-net-zone';

export interface SmtpConnectionLog {
  id: string;
  /** The address the client connected to (127.0.0.1 for the SMTP server, 127.0.0.3 for the tarpit). */
  localAddress: string;
  /** Command lines as received, in order (e.g. `EHLO x`, `MAIL FROM:<>`, `RCPT TO:<a@b>`, `RSET`). */
  commands: string[];
}

interface FakeSmtp {
  port: number;
  log: SmtpConnectionLog[];
  stop(): Promise<void>;
}

interface Reply {
  code: number;
  text: string;
}
type Rule = { kind: 'mailboxes' | 'accept' | 'greylistOnce' | 'slow' } | ({ kind: 'reply' } & Reply);

const RULES: Record<string, Rule> = {
  [D.deliverable]: { kind: 'mailboxes' },
  [D.nextMx]: { kind: 'mailboxes' },
  [D.aFallback]: { kind: 'mailboxes' },
  [D.freeProvider]: { kind: 'mailboxes' },
  [D.unicodeAscii]: { kind: 'mailboxes' },
  [D.catchAll]: { kind: 'accept' },
  [D.oddReply]: { kind: 'reply', code: 554, text: 'Transaction failed' },
  [D.yahooHosted]: { kind: 'accept' },
  [D.gmailHosted]: { kind: 'accept' },
  [D.m365Tenant]: { kind: 'accept' },
  [D.disposable]: { kind: 'accept' },
  [D.rejecting]: { kind: 'reply', code: 550, text: '5.1.1 Recipient address rejected: User unknown' },
  [D.policy]: { kind: 'reply', code: 550, text: '5.7.1 Service unavailable; client host blocked' },
  [D.mailboxFull]: { kind: 'reply', code: 552, text: '5.2.2 Mailbox full' },
  [D.mailboxFull452]: { kind: 'reply', code: 452, text: '4.2.2 Mailbox full, try again later' },
  [D.greylisted]: { kind: 'reply', code: 451, text: '4.7.1 Greylisted, please try again later' },
  [D.greylistOnce]: { kind: 'greylistOnce' },
  [D.slow]: { kind: 'slow' },
  [D.slowB]: { kind: 'slow' },
};

const UNKNOWN_USER: Reply = { code: 550, text: '5.1.1 Recipient address rejected: User unknown' };
const GREYLISTED: Reply = { code: 451, text: '4.7.1 Greylisted, please try again later' };

function smtpError(reply: Reply): Error {
  return Object.assign(new Error(reply.text), { responseCode: reply.code });
}

interface FakeSmtpOptions {
  /** How long the slow domain takes to answer RCPT TO. */
  slowMs: number;
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startFakeSmtp(options: FakeSmtpOptions): Promise<FakeSmtp> {
  const log: SmtpConnectionLog[] = [];
  const byId = new Map<string, SmtpConnectionLog>();
  const entry = (id: string, localAddress = SMTP_IP): SmtpConnectionLog => {
    let found = byId.get(id);
    if (!found) {
      found = { id, localAddress, commands: [] };
      byId.set(id, found);
      log.push(found);
    }
    return found;
  };
  const greylistSeen = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const noop = (): void => {};

  /** The RCPT TO answer for an address: an error reply, or null to accept. */
  const answer = (local: string, domain: string): Reply | null => {
    const rule = RULES[domain] ?? { kind: 'reply', ...UNKNOWN_USER };
    switch (rule.kind) {
      case 'accept':
      case 'slow':
        return null;
      case 'mailboxes':
        return (KNOWN_MAILBOXES as readonly string[]).includes(local) ? null : UNKNOWN_USER;
      case 'greylistOnce': {
        const seen = greylistSeen.has(`${local}@${domain}`);
        greylistSeen.add(`${local}@${domain}`);
        return seen ? null : GREYLISTED;
      }
      case 'reply':
        return rule;
    }
  };

  const onRcptTo = (address: SMTPServerAddress, callback: (err?: Error | null) => void): void => {
    // smtp-server shows punycode domains in Unicode; the rules are keyed by their ASCII form.
    const at = address.address.lastIndexOf('@');
    const local = address.address.slice(0, at).toLowerCase();
    const domain = domainToASCII(address.address.slice(at + 1));
    const reply = answer(local, domain);
    const respond = () => callback(reply ? smtpError(reply) : null);
    if (RULES[domain]?.kind !== 'slow') {
      respond();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      respond();
    }, options.slowMs);
    timers.add(timer);
  };

  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    banner: 'fake-net ESMTP',
    closeTimeout: 200,
    logger: {
      level: noop,
      trace: noop,
      info: noop,
      warn: noop,
      error: noop,
      fatal: noop,
      debug: (meta: unknown, tag: unknown, line: unknown) => {
        const m = meta as { tnx?: string; cid?: string };
        if (m.tnx === 'command' && m.cid && tag === 'C:') entry(m.cid).commands.push(String(line));
      },
    },
    onConnect: (session, callback) => {
      entry(session.id, session.localAddress);
      callback();
    },
    onRcptTo: (address, _session, callback) => onRcptTo(address, callback),
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on('end', () => callback(smtpError({ code: 554, text: '5.7.0 fake-net never delivers' })));
    },
  });

  // A client that resets its connection (an engine timeout under load) must not take the test
  // process down: smtp-server re-emits socket errors on the server object.
  smtp.on('error', noop);

  const tarpitSockets = new Set<net.Socket>();
  let tarpitCount = 0;
  const tarpit = net.createServer((socket) => {
    tarpitSockets.add(socket);
    const record = entry(`tarpit-${++tarpitCount}`, TARPIT_IP);
    socket.on('data', (chunk) => record.commands.push(...chunk.toString().split('\r\n').filter(Boolean)));
    socket.on('error', noop);
    socket.on('close', () => tarpitSockets.delete(socket));
  });

  // Find a port free on both 127.0.0.1 and 127.0.0.3 (the engine uses one port for all MX hosts).
  let port = 0;
  for (let attempt = 0; attempt < 10 && port === 0; attempt++) {
    await listen(smtp.server, 0, SMTP_IP);
    const candidate = (smtp.server.address() as net.AddressInfo).port;
    try {
      await listen(tarpit, candidate, TARPIT_IP);
      port = candidate;
    } catch {
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
    }
  }
  if (port === 0) throw new Error('fake-net: no port free on both 127.0.0.1 and 127.0.0.3');

  return {
    port,
    log,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of tarpitSockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => tarpit.close(() => resolve())),
      ]);
    },
  };
}
