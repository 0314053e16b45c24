/**
 * The network of the fairness tests (server/app/fair-keys*.test.ts): slow mail servers that
 * answer RCPT only after `slowMs` (each on an address of its own, so no per-host or per-address
 * limit is shared with the fast one) and a fast one, all on one SMTP port on loopback addresses,
 * with a real DNS server naming them. Every recipient is accepted (250). It records when each
 * RCPT of the fast server was answered.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { startFakeDns } from './fake-net-dns';
import type { ZoneEntry } from './fake-net-zone';

/** Domains at the slow servers (one address each) and at the fast one. */
export const FAIR_DOMAINS = {
  slowA: 'slow-a.fair.test',
  slowB: 'slow-b.fair.test',
  fast: 'fast.fair.test',
} as const;

const ADDRESSES = { slowA: '127.0.0.21', slowB: '127.0.0.22', fast: '127.0.0.23' } as const;

export interface FairNet {
  dnsServer: string;
  smtpPort: number;
  /** RCPTs received by the slow servers and by the fast one. */
  rcpts: { slow: number; fast: number };
  /** DNS_SERVERS, SMTP_PORT and ALLOW_PRIVATE_MX for a service or worker on this network. */
  env(): Record<string, string>;
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export async function startFairNet(slowMs: number): Promise<FairNet> {
  const zone: Record<string, ZoneEntry> = {};
  for (const [name, domain] of Object.entries(FAIR_DOMAINS)) {
    zone[domain] = { mx: [{ exchange: `mx.${domain}`, priority: 10 }] };
    zone[`mx.${domain}`] = { a: [ADDRESSES[name as keyof typeof ADDRESSES]] };
  }
  const dns = await startFakeDns(zone);
  const rcpts = { slow: 0, fast: 0 };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const serve = (slow: boolean) => (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    const reply = (text: string) => {
      if (!socket.destroyed) socket.write(`${text}\r\n`);
    };
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf('\r\n'); at >= 0; at = buffer.indexOf('\r\n')) {
        const verb = buffer.slice(0, 4).toUpperCase();
        buffer = buffer.slice(at + 2);
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fair.test');
        else if (verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 OK');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else if (verb === 'RCPT') {
          if (!slow) {
            rcpts.fast++;
            reply('250 2.1.5 OK');
            continue;
          }
          rcpts.slow++;
          const timer = setTimeout(() => {
            timers.delete(timer);
            reply('250 2.1.5 OK');
          }, slowMs);
          timers.add(timer);
        } else reply('502 5.5.2 not implemented');
      }
    });
    reply('220 fair.test ESMTP');
  };

  // One port on three addresses: the service has one SMTP_PORT for every MX host.
  const fast = createServer(serve(false));
  const port = await listen(fast, 0, ADDRESSES.fast);
  const slowA = createServer(serve(true));
  const slowB = createServer(serve(true));
  const servers = [fast, slowA, slowB];
  try {
    await listen(slowA, port, ADDRESSES.slowA);
    await listen(slowB, port, ADDRESSES.slowB);
  } catch (err) {
    for (const s of servers) s.close();
    await dns.stop();
    throw err;
  }
  return {
    dnsServer: dns.address,
    smtpPort: port,
    rcpts,
    env: () => ({ DNS_SERVERS: dns.address, SMTP_PORT: String(port), ALLOW_PRIVATE_MX: '1' }),
    async stop() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await Promise.all([
        dns.stop(),
        ...servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      ]);
    },
  };
}
