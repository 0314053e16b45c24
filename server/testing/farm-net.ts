/**
 * A "farm" of MX hosts for scale tests and benchmarks: `hosts` domains (`d<i>.farm.test`), each
 * with its own MX host (`mx<i>.farm.test`) on its own address (127.0.61.<i+1>: the service limits
 * conversations per MX address), all served by one SMTP peer on one port that
 * answers RCPT after a fixed latency and counts, per MX host, the conversations open at once
 * (from the first RCPT until the connection closes). Local parts choose the answer:
 * `bad…` → 550 5.1.1, `temp…` → 450 4.2.0 (unknown after the retry), anything else → 250.
 */
import { createServer, type Socket } from 'node:net';
import { startFakeDns } from './fake-net-dns';
import type { ZoneEntry } from './fake-net-zone';

export interface FarmNet {
  dnsServer: string;
  smtpPort: number;
  domain(i: number): string;
  /** Highest number of conversations open at once per MX host, and in all. */
  maxPerHost(): Map<string, number>;
  maxTotal(): number;
  /** Conversations open, summed over time (conversation-milliseconds) since the farm started. */
  openMs(): number;
  /** Every RCPT address received (lowercased), in order: the probes. */
  rcpts: string[];
  /** Environment for a service or worker process pointed at this farm. */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

/** The address of the farm's MX host i (up to 250 hosts). */
const farmAddress = (i: number) => `127.0.61.${i + 1}`;

export async function startFarmNet(hosts: number, latencyMs: number): Promise<FarmNet> {
  const zone: Record<string, ZoneEntry> = {};
  for (let i = 0; i < hosts; i++) {
    zone[`d${i}.farm.test`] = { mx: [{ exchange: `mx${i}.farm.test`, priority: 10 }] };
    zone[`mx${i}.farm.test`] = { a: [farmAddress(i)] };
  }
  const dns = await startFakeDns(zone);
  const active = new Map<string, number>();
  const maxima = new Map<string, number>();
  let total = 0;
  let maxTotal = 0;
  let openMs = 0;
  let changed = performance.now();
  const count = (delta: number) => {
    const now = performance.now();
    openMs += total * (now - changed);
    changed = now;
    total += delta;
  };
  const rcpts: string[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    let host: string | null = null;
    let buffer = '';
    const reply = (text: string) => {
      if (!socket.destroyed) socket.write(`${text}\r\n`);
    };
    socket.on('close', () => {
      sockets.delete(socket);
      if (host) {
        active.set(host, (active.get(host) ?? 1) - 1);
        count(-1);
      }
    });
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\r\n'); at >= 0; at = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 farm.test');
        else if (verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 OK');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else if (verb === 'RCPT') {
          const address = /<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '';
          rcpts.push(address);
          const domain = address.split('@')[1] ?? '';
          if (host === null) {
            host = `mx${domain.split('.')[0]?.slice(1)}.farm.test`;
            const now = (active.get(host) ?? 0) + 1;
            active.set(host, now);
            maxima.set(host, Math.max(maxima.get(host) ?? 0, now));
            count(1);
            maxTotal = Math.max(maxTotal, total);
          }
          const local = address.split('@')[0] ?? '';
          const answer = local.startsWith('bad')
            ? '550 5.1.1 no such user'
            : local.startsWith('temp')
              ? '450 4.2.0 try later'
              : '250 2.1.5 OK';
          setTimeout(() => reply(answer), latencyMs);
        } else reply('502 5.5.2 not implemented');
      }
    });
    reply('220 farm.test ESMTP');
  });
  await new Promise<void>((resolve) => server.listen(0, farmAddress(0), resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The same peer on every other host's address, same port.
  const others = Array.from({ length: hosts - 1 }, (_, i) => {
    const more = createServer((socket) => server.emit('connection', socket));
    return new Promise<typeof more>((resolve, reject) => {
      more.once('error', reject);
      more.listen(port, farmAddress(i + 1), () => resolve(more));
    });
  });
  const extra = await Promise.all(others);
  return {
    dnsServer: dns.address,
    smtpPort: port,
    domain: (i) => `d${i % hosts}.farm.test`,
    maxPerHost: () => new Map(maxima),
    maxTotal: () => maxTotal,
    openMs: () => {
      count(0);
      return openMs;
    },
    rcpts,
    env: () => ({
      DNS_SERVERS: dns.address,
      SMTP_PORT: String(port),
      ALLOW_PRIVATE_MX: '1',
      SMTP_TIMEOUT_MS: String(Math.max(5000, latencyMs * 10)),
      GREYLIST_RETRY_MS: '100',
      // `temp…` rows come back from the deferred queue quickly (server/jobs/deferral.ts).
      GREYLIST_WINDOW_MS: '200',
      RETRY_BACKOFF_MS: '200',
      SMTP_HELO: 'verimark.test',
      SMTP_FROM: 'probe@verimark.test',
    }),
    async stop() {
      for (const s of sockets) s.destroy();
      await Promise.all([
        dns.stop(),
        ...[server, ...extra].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      ]);
    },
  };
}
