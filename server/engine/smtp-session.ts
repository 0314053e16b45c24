/**
 * A minimal SMTP client over node:net for probing: reads (multi-line) replies, sends one
 * command at a time, each with a timeout. It has no DATA command on purpose.
 */
import net from 'node:net';

export interface SmtpReply {
  code: number;
  /** Enhanced status code (RFC 3463) from the last line, e.g. `5.1.1`, or null. */
  enhanced: string | null;
  /** Text of all lines, joined by a space. */
  text: string;
}

type SmtpFailureKind = 'connect' | 'timeout' | 'closed' | 'protocol';

export class SmtpFailure extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'SmtpFailure';
  }
}

const REPLY_LINE = /^(\d{3})([ -])?(.*)$/;
const ENHANCED = /^([245]\.\d{1,3}\.\d{1,3})\b/;
/**
 * Bounds on one reply, continuation lines included: a hostile server streaming `220-` lines
 * forever is cut off here instead of growing memory until the timeout. Real EHLO replies are
 * a few hundred bytes and lines (RFC 5321 §4.5.3.1.5: 512 octets a line).
 */
export const MAX_REPLY_BYTES = 64 * 1024;
export const MAX_REPLY_LINES = 256;
const MAX_UNASKED_REPLIES = 8;
/** The session's state after QUIT: commands fail with it. */
const QUIT_DONE = new SmtpFailure('closed', 'session ended with QUIT');

/** Accumulates lines into replies; exported for unit tests. */
export class ReplyParser {
  private buffer = '';
  private lines: string[] = [];
  /** Characters held for the reply being read (its finished lines). */
  private held = 0;

  /** Feeds received text; returns the replies it completed. Throws when a reply is too long. */
  push(chunk: string): SmtpReply[] {
    this.buffer += chunk;
    const replies: SmtpReply[] = [];
    let start = 0;
    for (let newline = this.buffer.indexOf('\n'); newline >= 0; newline = this.buffer.indexOf('\n', start)) {
      const raw = this.buffer.slice(start, newline);
      start = newline + 1;
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const match = REPLY_LINE.exec(line);
      if (!match) throw new SmtpFailure('protocol', `not an SMTP reply: ${line.slice(0, 80)}`);
      this.lines.push(match[3] ?? '');
      this.held += line.length;
      if (this.lines.length > MAX_REPLY_LINES || this.held > MAX_REPLY_BYTES)
        throw new SmtpFailure('protocol', 'reply too long');
      if (match[2] !== '-') {
        const last = this.lines[this.lines.length - 1] ?? '';
        replies.push({
          code: Number(match[1]),
          enhanced: ENHANCED.exec(last)?.[1] ?? null,
          text: this.lines.join(' ').trim(),
        });
        this.lines = [];
        this.held = 0;
      }
    }
    this.buffer = this.buffer.slice(start);
    if (this.held + this.buffer.length > MAX_REPLY_BYTES) throw new SmtpFailure('protocol', 'reply too long');
    return replies;
  }
}

export interface SmtpSession {
  greeting: SmtpReply;
  /** Sends one command line and waits for its reply. */
  command(line: string): Promise<SmtpReply>;
  /** Sends QUIT (best effort, bounded by the timeout) and closes the socket. */
  quit(): Promise<void>;
}

interface Waiter {
  resolve(reply: SmtpReply): void;
  reject(error: SmtpFailure): void;
}

/** Opens a TCP connection for a session; the SOCKS5 egress is one (server/engine/socks-egress.ts). */
export type Connector = (address: string, port: number) => Promise<net.Socket>;

/**
 * Connects (directly, or through `connector`) and reads the greeting. Failures of the
 * connector (e.g. the proxy refusing or not answering) are `connect` failures.
 */
export async function openSmtpSession(
  address: string,
  port: number,
  timeoutMs: number,
  connector?: Connector,
  signal?: AbortSignal,
): Promise<SmtpSession> {
  if (signal?.aborted) throw new SmtpFailure('timeout', 'verification deadline passed');
  if (!connector) return sessionOn(net.connect({ host: address, port }), false, timeoutMs, signal);
  let socket: net.Socket;
  try {
    socket = await beforeAbort(connector(address, port), signal);
  } catch (error) {
    if (error instanceof SmtpFailure) throw error;
    throw new SmtpFailure('connect', `proxy: ${error instanceof Error ? error.message : String(error)}`);
  }
  return sessionOn(socket, true, timeoutMs, signal);
}

/**
 * The connector's socket, unless the deadline passes first (a SOCKS handshake in progress is
 * bounded by the verification's deadline too): then a timeout, and the late socket is closed.
 */
function beforeAbort(connecting: Promise<net.Socket>, signal?: AbortSignal): Promise<net.Socket> {
  if (!signal) return connecting;
  return new Promise<net.Socket>((resolve, reject) => {
    let late = false;
    const onAbort = () => {
      late = true;
      reject(new SmtpFailure('timeout', 'verification deadline passed'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    connecting.then(
      (socket) => {
        signal.removeEventListener('abort', onAbort);
        if (late) socket.destroy();
        else resolve(socket);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function sessionOn(
  socket: net.Socket,
  alreadyConnected: boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SmtpSession> {
  socket.setEncoding('latin1');
  const parser = new ReplyParser();
  const pending: SmtpReply[] = [];
  let waiter: Waiter | null = null;
  let failure: SmtpFailure | null = null;
  let connected = alreadyConnected;

  const fail = (error: SmtpFailure) => {
    failure ??= error;
    socket.destroy();
    waiter?.reject(failure);
    waiter = null;
  };
  socket.on('connect', () => {
    connected = true;
  });
  socket.on('error', (error) => fail(new SmtpFailure(connected ? 'closed' : 'connect', error.message)));
  // The verification's deadline: the connection is cut wherever it is.
  const onAbort = () => fail(new SmtpFailure('timeout', 'verification deadline passed'));
  signal?.addEventListener('abort', onAbort, { once: true });
  socket.once('close', () => signal?.removeEventListener('abort', onAbort));
  // An Error costs a stack trace: none is made for the normal close after QUIT.
  socket.on('close', () => {
    if (!failure) fail(new SmtpFailure(connected ? 'closed' : 'connect', 'connection closed'));
  });
  socket.on('data', (chunk: string) => {
    try {
      pending.push(...parser.push(chunk));
      // One command at a time (PIPELINING is never used): a pile of replies nobody asked for
      // is a hostile or broken server, not something to keep in memory.
      if (pending.length > MAX_UNASKED_REPLIES) throw new SmtpFailure('protocol', 'replies nobody asked for');
    } catch (error) {
      fail(error instanceof SmtpFailure ? error : new SmtpFailure('protocol', String(error)));
    }
    const reply = pending.shift();
    if (reply && waiter) {
      waiter.resolve(reply);
      waiter = null;
    }
  });

  const nextReply = (what: string): Promise<SmtpReply> =>
    new Promise((resolve, reject) => {
      const ready = pending.shift();
      if (ready) return resolve(ready);
      if (failure) return reject(failure);
      // Before the TCP handshake completes this is the connect timeout (the host is unreachable).
      const timer = setTimeout(() => {
        const kind = connected ? 'timeout' : 'connect';
        fail(new SmtpFailure(kind, `${connected ? what : 'connect'}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      waiter = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });

  const command = (line: string): Promise<SmtpReply> => {
    if (failure) return Promise.reject(failure);
    // Never let a value smuggle a second command (or DATA) into the conversation.
    if (/[\r\n]/.test(line)) return Promise.reject(new SmtpFailure('protocol', 'line break in a command'));
    socket.write(`${line}\r\n`);
    return nextReply(line.split(/[ :]/)[0] ?? line);
  };

  const quit = async (): Promise<void> => {
    if (!failure) await command('QUIT').catch(() => undefined);
    failure ??= QUIT_DONE;
    socket.destroy();
  };

  // The connect timeout and the greeting timeout are one and the same wait.
  return nextReply('greeting').then((greeting) => ({ greeting, command, quit }));
}
