/**
 * A scripted SMTP server for client tests: a raw TCP server (127.0.0.1 by default, random port)
 * that writes `greeting` (null = drop each connection at once), then answers each received line
 * with `answer(line)` (raw reply text; '' = stay silent, null = drop the connection). Records the
 * lines it received and the remote address of each connection.
 */
import net from 'node:net';
import { afterEach } from 'vitest';

export interface ScriptedSmtp {
  port: number;
  lines: string[];
  /** Remote address of each accepted connection. */
  peers: string[];
  /** Lines that arrived while the reply to the previous one was still due (pipelining). */
  early: number;
  close(): Promise<void>;
}

export interface ScriptedOptions {
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Each reply is written this many milliseconds after its line (a slow server). */
  replyDelayMs?: number;
  /** A further greeting written this long after `greeting` (Postfix postscreen's greet wait). */
  lateGreeting?: { text: string; afterMs: number };
}

export type Answer = (line: string) => string | null;

export async function startScriptedSmtp(
  greeting: string | null,
  answer: Answer,
  options: ScriptedOptions = {},
): Promise<ScriptedSmtp> {
  const sockets = new Set<net.Socket>();
  const reply = (socket: net.Socket, line: string) => {
    if (socket.destroyed) return;
    const text = answer(line);
    if (text === null) socket.destroy();
    else socket.write(text);
    if (line === 'QUIT') socket.end();
  };
  const server = net.createServer((socket) => {
    scripted.peers.push(socket.remoteAddress ?? '');
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (greeting === null) {
      socket.destroy();
      return;
    }
    socket.write(greeting);
    const late = options.lateGreeting;
    if (late) setTimeout(() => socket.destroyed || socket.write(late.text), late.afterMs);
    let buffer = '';
    let due = false;
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        scripted.lines.push(line);
        if (options.replyDelayMs === undefined) {
          reply(socket, line);
          continue;
        }
        if (due) scripted.early++;
        due = true;
        setTimeout(() => {
          due = false;
          reply(socket, line);
        }, options.replyDelayMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const scripted: ScriptedSmtp = {
    port: (server.address() as net.AddressInfo).port,
    lines: [],
    peers: [],
    early: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return scripted;
}

/**
 * For a test file: `scripted(greeting, answer, options?)` starts a scripted server that is closed
 * after each test.
 */
export function useScriptedSmtp(): (
  greeting: string | null,
  answer: Answer,
  options?: ScriptedOptions,
) => Promise<ScriptedSmtp> {
  const servers: ScriptedSmtp[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));
  return async (greeting, answer, options) => {
    const server = await startScriptedSmtp(greeting, answer, options);
    servers.push(server);
    return server;
  };
}
