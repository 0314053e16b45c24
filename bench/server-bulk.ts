/**
 * Bulk throughput of the reference service against its floor, measured in the same run
 * (docs/design.md §4; issue: "throughput near the floor").
 *
 * A loopback SMTP peer answers every reply (greeting included) after a fixed latency; a real
 * DNS server on loopback serves DOMAINS domains, each with its MX host on its own loopback address
 * (127.0.62.<i+1>), where the peer listens too: the service limits conversations per MX address,
 * so the domains must be distinct destinations, as on the internet. Then:
 *  1. the floor: a minimal probe loop — connect, EHLO, MAIL, RCPT, QUIT — over the same
 *     addresses with the same concurrency as the service (32 conversations);
 *  2. the service (child process): upload the same addresses as a CSV, wait for completed,
 *     with the CPU time the service process used per row;
 *  3. upload acceptance of a ~23 MB CSV by the service vs the same multipart request to a server
 *     that only streams the file to disk (bench/testing/disk-sink.ts).
 *
 *   npx tsx bench/server-bulk.ts [rows=20000] [domains=20] [latencyMs=20]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_KEY_HEADER, PATHS } from '@verimark/contract';
import pLimit from 'p-limit';
import { apiWithNewKey, waitFor } from '../server/testing/api';
import { type FakeNet, startFakeNet } from '../server/testing/fake-net';
import { startFakeDns } from '../server/testing/fake-net-dns';
import type { ZoneEntry } from '../server/testing/fake-net-zone';
import { startService } from '../server/testing/service';

const ROWS = Number(process.argv[2] ?? 20_000);
const DOMAINS = Number(process.argv[3] ?? 20);
const LATENCY_MS = Number(process.argv[4] ?? 20);
/** The service's global SMTP concurrency (server/config.ts); the loop uses the same. */
const CONCURRENCY = 32;
/** Uploads of the ~23 MB file to each server (BENCH_UPLOAD_ONLY=1 runs only this part). */
const UPLOAD_RUNS = 5;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const domain = (i: number) => `bench-${i % DOMAINS}.test`;
const address = (i: number) => `user${i}@${domain(i)}`;
/** The MX address of domain(i). */
const mxAddress = (i: number) => `127.0.62.${(i % DOMAINS) + 1}`;

/** An SMTP peer that answers each line (and greets) after LATENCY_MS; accepts every RCPT. */
async function startSlowPeer(): Promise<{ port: number; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const later = (socket: net.Socket, text: string, end = false) =>
    setTimeout(() => {
      if (socket.destroyed) return;
      if (end) socket.end(text);
      else socket.write(text);
    }, LATENCY_MS);
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    later(socket, '220 bench ESMTP\r\n');
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (line === 'QUIT') later(socket, '221 bye\r\n', true);
        else if (line.startsWith('EHLO')) later(socket, '250-bench\r\n250 8BITMIME\r\n');
        else later(socket, '250 ok\r\n');
      }
    });
  });
  server.listen(0, mxAddress(0));
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as net.AddressInfo).port;
  // The same peer on every other domain's MX address, same port.
  const extra = await Promise.all(
    Array.from({ length: DOMAINS - 1 }, (_, i) => {
      const more = net.createServer((socket) => server.emit('connection', socket));
      return new Promise<net.Server>((resolve, reject) => {
        more.once('error', reject);
        more.listen(port, mxAddress(i + 1), () => resolve(more));
      });
    }),
  );
  return {
    port,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(
        [server, ...extra].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
    },
  };
}

/** One minimal probe: connect, EHLO, MAIL, RCPT, QUIT, each waiting for its reply. */
function minimalProbe(port: number, host: string, rcpt: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const script = ['EHLO bench.test', 'MAIL FROM:<probe@bench.test>', `RCPT TO:<${rcpt}>`, 'QUIT'];
    let buffer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (line[3] === '-') continue;
        const next = script.shift();
        if (next) socket.write(`${next}\r\n`);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
}

/** BENCH_CPU_PROF=<dir>: the service process writes a V8 CPU profile there (node --cpu-prof). */
function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100/s)
  return ticks * 10;
}

/** The disk sink (bench/testing/disk-sink.ts) in a child process: the upload's floor. */
async function startDiskSink(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/testing/disk-sink.ts'), dir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`disk sink exited: ${out}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Sends `text` as the multipart `file` part of a POST (what api.upload sends) to `url` and waits
 * for the answer; with BENCH_UPLOAD_MBPS the body goes out at that many MB/s, as over a network
 * (loopback otherwise sends as fast as the server reads). Resolves with the time and status.
 */
async function uploadMs(url: string, text: string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'big.csv');
  const encoded = new Response(form);
  const contentType = encoded.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const rate = Number(process.env.BENCH_UPLOAD_MBPS ?? 0) * 1024 * 1024;
  const step = 64 * 1024;
  const started = performance.now();
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= bytes.length) return controller.close();
      if (rate > 0) {
        const due = started + (at / rate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      controller.enqueue(bytes.subarray(at, at + step));
      at += step;
    },
  });
  const response = await fetch(url + PATHS.bulk, {
    method: 'POST',
    headers: { ...headers, 'content-type': contentType },
    body,
    duplex: 'half',
  } as RequestInit);
  await response.text();
  return { ms: performance.now() - started, status: response.status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const range = (values: number[]) =>
  `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms (median ${median(values).toFixed(0)})`;

function csvOf(rows: number, padding = ''): string {
  const lines = ['Id,Name,Email,Company'];
  for (let i = 0; i < rows; i++)
    lines.push(`${i},"Person ${i}${padding}",${address(i)},"Company ${i % 97}, Ltd"`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'verimark-bench-'));
  const peer = await startSlowPeer();
  const zone: Record<string, ZoneEntry> = {};
  for (let i = 0; i < DOMAINS; i++) {
    zone[domain(i)] = { mx: [{ priority: 10, exchange: `mx.${domain(i)}` }] };
    zone[`mx.${domain(i)}`] = { a: [mxAddress(i)] };
  }
  const dns = await startFakeDns(zone);
  const fakeNet = await startFakeNet();
  const env = {
    DNS_SERVERS: dns.address,
    SMTP_PORT: String(peer.port),
    SMTP_TIMEOUT_MS: '10000',
    ALLOW_PRIVATE_MX: '1',
  };
  try {
    if (!process.env.BENCH_UPLOAD_ONLY) await bulk(peer.port, fakeNet, env);
    await uploadAcceptance(dir, fakeNet, env);
  } finally {
    await fakeNet.stop();
    await dns.stop();
    await peer.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** 1 and 2: the minimal loop, then the service, over the same addresses. */
async function bulk(peerPort: number, fakeNet: FakeNet, env: Record<string, string>): Promise<void> {
  const peer = { port: peerPort };
  {
    // 1. The floor: the minimal loop with the service's concurrency.
    const limit = pLimit(CONCURRENCY);
    const loopCpu = process.cpuUsage();
    const loopStarted = performance.now();
    await Promise.all(
      Array.from({ length: ROWS }, (_, i) => limit(() => minimalProbe(peer.port, mxAddress(i), address(i)))),
    );
    const loopRate = ROWS / ((performance.now() - loopStarted) / 1000);
    const { user, system } = process.cpuUsage(loopCpu);
    const loopCpuPerRow = (user + system) / 1000 / ROWS;

    // 2. The service, from upload to completed.
    const service = await startService({ fakeNet, env, nodeArgs: profileArgs() });
    try {
      const api = await apiWithNewKey(service, ROWS * 2);
      const csv = csvOf(ROWS);
      const cpuBefore = cpuMsOf(service.pid);
      const started = performance.now();
      const upload = await api.upload(csv, { fileName: 'bench.csv', mode: 'non_catch_all' });
      if (upload.status !== 200) throw new Error(`upload failed: ${upload.status}`);
      const uploadMs = performance.now() - started;
      // Polled once a second, as a client would (a 50 ms poll would bill the service's CPU for it).
      const fileId = upload.body.data.file_id;
      const status = await waitFor(
        async () => {
          const data = (await api.fileStatus(fileId)).body.data;
          return data?.status === 'completed' || data?.status === 'failed' ? data : null;
        },
        30 * 60_000,
        1000,
      );
      const seconds = (performance.now() - started) / 1000;
      const cpuPerRow = (cpuMsOf(service.pid) - cpuBefore) / ROWS;
      if (status.status !== 'completed') throw new Error(`file ended ${status.status}`);
      const rate = ROWS / seconds;
      console.log(
        `server bulk: ${ROWS} rows over ${DOMAINS} domains, ${LATENCY_MS} ms per SMTP reply, ${CONCURRENCY} conversations`,
      );
      console.log(
        `  minimal loop ${loopRate.toFixed(0)} rows/s (connect, EHLO, MAIL, RCPT, QUIT), ${loopCpuPerRow.toFixed(3)} ms CPU per row (loop and peer)`,
      );
      console.log(
        `  service      ${rate.toFixed(0)} rows/s (upload ${uploadMs.toFixed(0)} ms → completed ${seconds.toFixed(1)} s)`,
      );
      console.log(`  ratio        ${(rate / loopRate).toFixed(2)}× the loop (goal ≥ 1.2)`);
      console.log(`  CPU          ${cpuPerRow.toFixed(3)} ms per row in the service process (goal ≤ 0.3)`);
    } finally {
      await service.stop();
    }
  }
}

/**
 * 3. Upload acceptance of a ~23 MB file vs the same request to a server that only streams the
 * file to disk (bench/testing/disk-sink.ts, also a child process, same client); UPLOAD_RUNS of
 * each, alternating, so changes of load hit both alike.
 */
async function uploadAcceptance(dir: string, fakeNet: FakeNet, env: Record<string, string>): Promise<void> {
  const padded = csvOf(1, ' '.repeat(160)).split('\n')[1] ?? '';
  const bigRows = Math.floor((22 * 1024 * 1024) / (padded.length + 1));
  const bigText = csvOf(bigRows, ' '.repeat(160));
  const small = csvOf(10);
  const sinkMs: number[] = [];
  const acceptMs: number[] = [];
  // A fresh service each run (an accepted file's processing would compete with the next
  // upload), warmed up, like the sink, with a small upload first.
  for (let run = 0; run < UPLOAD_RUNS; run++) {
    const sink = await startDiskSink(dir);
    const uploader = await startService({
      fakeNet,
      env: { ...env, SMTP_PORT: '9' },
      nodeArgs: profileArgs(),
    });
    try {
      const api = await apiWithNewKey(uploader, 1_000_000);
      const key = { [API_KEY_HEADER]: api.apiKey ?? '' };
      const sent = [
        await uploadMs(sink.url, small),
        await uploadMs(uploader.baseUrl, small, key),
        await uploadMs(sink.url, bigText),
        await uploadMs(uploader.baseUrl, bigText, key),
      ];
      if (sent.some((s) => s.status !== 200)) throw new Error(`upload failed: ${sent.map((s) => s.status)}`);
      sinkMs.push(sent[2]?.ms ?? 0);
      acceptMs.push(sent[3]?.ms ?? 0);
    } finally {
      await uploader.stop();
      await sink.stop();
    }
  }
  const mb = (Buffer.byteLength(bigText) / 1024 / 1024).toFixed(1);
  const pace = process.env.BENCH_UPLOAD_MBPS ? `, sent at ${process.env.BENCH_UPLOAD_MBPS} MB/s` : '';
  console.log(`  upload       ${mb} MB${pace} accepted in ${range(acceptMs)}`);
  console.log(`               the same request to a server that only streams it to disk: ${range(sinkMs)}`);
  console.log(`               ${(median(acceptMs) / median(sinkMs)).toFixed(2)}× (medians; goal ≤ 2×)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
