/**
 * A scripted SMTP server for client tests: a raw TCP server on 127.0.0.1 (random port) that
 * writes `greeting`, then answers each received line with `answer(line)` (raw reply text;
 * '' = stay silent, null = drop the connection). Records the lines it received.
 */
import net from 'node:net';
import { afterEach } from 'vitest';

export interface ScriptedSmtp {
  port: number;
  lines: string[];
  close(): Promise<void>;
}

async function startScriptedSmtp(
  greeting: string,
  answer: (line: string) => string | null,
): Promise<ScriptedSmtp> {
  const lines: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write(greeting);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        lines.push(line);
        const reply = answer(line);
        if (reply === null) socket.destroy();
        else socket.write(reply);
        if (line === 'QUIT') socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    lines,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: `scripted(greeting, answer)` starts a scripted server that is closed after
 * each test.
 */
export function useScriptedSmtp(): (
  greeting: string,
  answer: (line: string) => string | null,
) => Promise<ScriptedSmtp> {
  const servers: ScriptedSmtp[] = [];
  afterEach(() => Promise.all(servers.splice(0).map((s) => s.close())));
  return async (greeting, answer) => {
    const server = await startScriptedSmtp(greeting, answer);
    servers.push(server);
    return server;
  };
}
