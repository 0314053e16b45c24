/**
 * One simulated MX host of the provider world (./world.ts): a real SMTP server over TCP on its
 * own 127.0.0.x address, speaking exactly the reply texts of its provider profile
 * (./profiles.ts) and answering each recipient by the rules of the recipient's site
 * (./sites.ts). Connection-level behaviours live here: a tarpit (accepts TCP, never speaks), a
 * slow or two-part greeting, a per-client connection limit, a per-connection cap on messages or
 * recipients, an error limit (Postfix's smtpd_hard_error_limit), a directory-harvest guard
 * (after N invalid recipients on one connection), a delay before each RCPT answer. Every
 * connection's transcript (what the client sent, what the host answered) is recorded.
 */
import net from 'node:net';
import type { Greylist } from './greylist';
import type { HostProfile, Lines } from './profiles';
import type { MailboxState, Site } from './sites';

/** Connection-level behaviours of one host; all optional. */
export interface HostBehaviour {
  /** Accepts TCP and never writes a byte (a tarpit or a dead filter). */
  silent?: boolean;
  /** The whole greeting is written this long after the connection (an Exim connect ACL `delay`). */
  greetingDelayMs?: number;
  /**
   * Postfix postscreen's greet wait: `220-<host> …` at once, the final `220 …` line this long
   * after (one multi-line greeting whose last line comes late).
   */
  pregreetWaitMs?: number;
  /** More concurrent connections than this from one client address get `reply` and are closed. */
  connectionsPerClient?: { limit: number; reply: Lines };
  /** MAIL commands after `limit` on one connection get `reply` (and the connection closes). */
  messagesPerConnection?: { limit: number; reply: Lines };
  /** RCPT commands after `limit` on one connection get `reply` (the connection stays). */
  recipientsPerConnection?: { limit: number; reply: Lines };
  /** After `limit` error replies on one connection, the next command gets `reply` and the connection closes. */
  errorLimit?: { limit: number; reply: (host: string) => Lines };
  /** After `limit` invalid recipients on one connection, the next RCPT gets `reply`; `drop` closes it then. */
  harvestGuard?: { limit: number; reply: (rcpt: string) => Lines; drop: boolean };
  /** Every RCPT is answered this long after it arrives (a slow directory lookup). */
  rcptDelayMs?: number;
}

export interface HostSpec {
  /** The MX host name (what DNS returns for the MX record). */
  name: string;
  /** Its own loopback address, 127.0.0.x. */
  ip: string;
  profile: HostProfile;
  behaviour?: HostBehaviour;
}

export interface TranscriptLine {
  /** Milliseconds since the connection opened. */
  at: number;
  /** `C` the client sent it, `S` the host wrote it. */
  from: 'C' | 'S';
  text: string;
}

export interface ConnectionLog {
  id: number;
  host: string;
  ip: string;
  client: string;
  openedAt: number;
  closedAt: number | null;
  lines: TranscriptLine[];
  /** Recipients (lowercased) the client asked for on this connection, in order. */
  rcpts: string[];
}

export interface RunningHost {
  spec: HostSpec;
  server: net.Server;
  /** Connections open now. */
  open(): number;
  /** Highest number of connections open at once. */
  maxOpen(): number;
  close(): Promise<void>;
}

interface Shared {
  log: ConnectionLog[];
  siteOf(domain: string): Site | undefined;
  greylist: Greylist;
  /** Mailbox state for an address of a site the host serves, null when there is no such mailbox. */
  mailbox(site: Site, local: string): MailboxState | null;
}

let nextId = 0;

/** Creates the host's server (not yet listening). */
export function createHost(spec: HostSpec, shared: Shared): RunningHost {
  const { profile } = spec;
  const behaviour = spec.behaviour ?? {};
  const sockets = new Set<net.Socket>();
  const perClient = new Map<string, number>();
  let maxOpen = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    maxOpen = Math.max(maxOpen, sockets.size);
    const client = socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
    perClient.set(client, (perClient.get(client) ?? 0) + 1);
    const started = Date.now();
    const log: ConnectionLog = {
      id: ++nextId,
      host: spec.name,
      ip: spec.ip,
      client,
      openedAt: started,
      closedAt: null,
      lines: [],
      rcpts: [],
    };
    shared.log.push(log);
    const timers = new Set<NodeJS.Timeout>();
    socket.on('error', () => {});
    socket.on('close', () => {
      for (const timer of timers) clearTimeout(timer);
      sockets.delete(socket);
      perClient.set(client, (perClient.get(client) ?? 1) - 1);
      log.closedAt = Date.now();
    });
    const later = (ms: number, run: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    };
    const write = (lines: Lines) => {
      if (socket.destroyed || socket.writableEnded) return;
      for (const text of lines) log.lines.push({ at: Date.now() - started, from: 'S', text });
      socket.write(lines.map((l) => `${l}\r\n`).join(''));
    };
    // Closing as a server process does (close() after its last reply): the connection is gone
    // at once, so it no longer counts against the client's connection limit.
    const hangUp = (lines: Lines) => {
      write(lines);
      socket.end(() => socket.destroy());
    };

    if (behaviour.silent) {
      socket.on('data', (chunk) => {
        for (const text of chunk.toString('latin1').split('\r\n').filter(Boolean))
          log.lines.push({ at: Date.now() - started, from: 'C', text });
      });
      return;
    }
    const limit = behaviour.connectionsPerClient;
    if (limit && (perClient.get(client) ?? 0) > limit.limit) {
      hangUp(limit.reply);
      return;
    }

    // The SMTP dialogue: one command at a time, in order (replies may be delayed).
    let greeted = false;
    let sender: string | null = null;
    let messages = 0;
    let recipients = 0;
    let errors = 0;
    let invalid = 0;
    let busy = false;
    let buffer = '';
    const queue: string[] = [];
    const reply = (lines: Lines) => {
      const code = Number(lines.at(-1)?.slice(0, 3));
      if (code >= 400) errors++;
      write(lines);
    };

    const rcpt = (line: string): { lines: Lines; close?: boolean } => {
      const address = /<([^>]*)>/.exec(line)?.[1]?.trim() ?? '';
      if (sender === null) return { lines: profile.needMail };
      const at = address.lastIndexOf('@');
      if (at <= 0) return { lines: profile.badAddress(address) };
      log.rcpts.push(address.toLowerCase());
      const guard = behaviour.harvestGuard;
      if (guard && invalid >= guard.limit) return { lines: guard.reply(address), close: guard.drop };
      const cap = behaviour.recipientsPerConnection;
      if (cap && recipients >= cap.limit) return { lines: cap.reply };
      recipients++;
      const local = address.slice(0, at).toLowerCase();
      const domain = address.slice(at + 1).toLowerCase();
      const site = shared.siteOf(domain);
      if (!site?.hosts.includes(spec.name)) return { lines: profile.relayDenied(address) };
      if (site.greylist && !shared.greylist.pass(client, sender, address.toLowerCase()))
        return { lines: site.greylist(address, domain) };
      const state = shared.mailbox(site, local);
      if (state === null) {
        invalid++;
        return { lines: site.unknown(address) };
      }
      return { lines: site.answer(state, address) };
    };

    const handle = (line: string): Promise<void> | undefined => {
      log.lines.push({ at: Date.now() - started, from: 'C', text: line });
      const over = behaviour.errorLimit;
      if (over && errors >= over.limit) {
        hangUp(over.reply(spec.name));
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      switch (verb) {
        case 'EHLO':
          sender = null;
          return void reply(profile.ehlo(spec.name, line.slice(5).trim(), client));
        case 'HELO':
          sender = null;
          return void reply(profile.helo(spec.name, line.slice(5).trim(), client));
        case 'MAIL': {
          const cap = behaviour.messagesPerConnection;
          if (cap && messages >= cap.limit) return void hangUp(cap.reply);
          messages++;
          sender = (/<([^>]*)>/.exec(line)?.[1] ?? '').toLowerCase();
          return void reply(profile.mailOk(sender));
        }
        case 'RCPT': {
          const answer = rcpt(line);
          const send = () => (answer.close ? hangUp(answer.lines) : reply(answer.lines));
          const delay = behaviour.rcptDelayMs ?? 0;
          if (delay <= 0) return void send();
          return new Promise<void>((done) =>
            later(delay, () => {
              send();
              done();
            }),
          );
        }
        case 'RSET':
          sender = null;
          return void reply(profile.rset);
        case 'NOOP':
          return void reply(profile.noop);
        case 'QUIT':
          return void hangUp(profile.quit(spec.name));
        case 'DATA':
          return void reply(profile.noData);
        default:
          return void reply(profile.unknownCommand);
      }
    };

    const drain = async () => {
      if (busy || !greeted) return;
      busy = true;
      while (queue.length > 0 && !socket.destroyed && !socket.writableEnded)
        await handle(queue.shift() ?? '');
      busy = false;
    };
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        queue.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
      void drain();
    });

    const greet = () => {
      greeted = true;
      void drain();
    };
    const greeting = profile.greeting(spec.name);
    if (behaviour.pregreetWaitMs !== undefined) {
      write([`220-${greeting[0]?.slice(4) ?? spec.name}`]);
      later(behaviour.pregreetWaitMs, () => {
        write(greeting);
        greet();
      });
    } else if (behaviour.greetingDelayMs) {
      later(behaviour.greetingDelayMs, () => {
        write(greeting);
        greet();
      });
    } else {
      write(greeting);
      greet();
    }
  });

  return {
    spec,
    server,
    open: () => sockets.size,
    maxOpen: () => maxOpen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
