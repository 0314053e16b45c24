/**
 * The upload's one pass (countRows into BatchBlocks) on a worker thread, so that on a machine
 * with a second core parsing and serialising run beside receiving the request rather than after
 * each piece of it. The thread hands back blocks of serialised batches, which this thread stores
 * (under the file, still `receiving`) while the rest of the upload arrives. One thread per
 * process, started with the bulk route and kept; each upload is a session on it. The chunks go over with a bounded window (SCAN_WINDOW_BYTES sent and not yet
 * taken by the scanner), so a fast upload waits for the scanner as it did in-process and memory
 * stays bounded.
 */
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import type { NewBatch } from '../store/store';
import type { RowCounts } from './scan';

/** Bytes of an upload sent to the thread and not yet read by its scanner. */
const SCAN_WINDOW_BYTES = 1024 * 1024;
/** Pieces of the upload are gathered to this size before they are sent (fewer messages). */
const SEND_BYTES = 64 * 1024;

export type ThreadRequest =
  | { id: number; kind: 'start'; batchRows: number }
  | { id: number; kind: 'chunk'; data: Uint8Array }
  /** A block the thread handed over is stored: it may hand over another. */
  | { id: number; kind: 'stored' }
  | { id: number; kind: 'end' };

export type ThreadReply =
  | { id: 0; kind: 'ready' }
  | { id: number; kind: 'ack'; bytes: number }
  | { id: number; kind: 'block'; batches: NewBatch[] }
  | { id: number; kind: 'done'; counts: RowCounts | 'too_wide'; batches: number }
  | { id: number; kind: 'failed'; message: string };

interface Listener {
  reply(message: ThreadReply): void;
  lost(err: Error): void;
}

/**
 * What a thread's own import of the TypeScript scanner fails with when it does not go through tsx:
 * Node 20 knows no `.ts`; Node 22 strips the types but resolves no extensionless import.
 */
const NOT_LOADED_AS_TYPESCRIPT = [
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_MODULE_NOT_FOUND',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
];

/**
 * The thread's entry: the scanner. Built (`npm run build -w server`), it is the JavaScript file
 * beside the entry that starts it. From source, it goes through tsx's loader (the tests and
 * `npm run openapi` run the TypeScript through tsx): Node 20 does not pass `--import` on to a
 * worker, so unless the thread already loads TypeScript it registers tsx itself; registering twice
 * would transform twice. A failed import ran none of the scanner's code, so trying again is safe.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(
  FROM_SOURCE ? './scan-thread-worker.ts' : './scan-thread-worker.js',
  import.meta.url,
).href;
const ENTRY = FROM_SOURCE
  ? `import(${JSON.stringify(WORKER_URL)})
  .catch((err) => {
    if (!${JSON.stringify(NOT_LOADED_AS_TYPESCRIPT)}.includes(err?.code)) throw err;
    return import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => {
      tsx.register();
      return import(${JSON.stringify(`${WORKER_URL}?tsx`)});
    });
  })
  .catch((err) => { setImmediate(() => { throw err; }); });`
  : `import(${JSON.stringify(WORKER_URL)}).catch((err) => { setImmediate(() => { throw err; }); });`;

let thread: Worker | null = null;
/** Settles once the running thread has loaded the scanner (or failed to). */
let threadReady: Promise<void> = Promise.resolve();
let nextId = 1;
const listeners = new Map<number, Listener>();

/**
 * The thread, started if it is not running: at the service's start-up (so its start — loading
 * the scanner — is not paid by the first upload, nor counted in its time), or again after it died.
 */
export function scanThread(): Worker {
  if (thread) return thread;
  const worker = new Worker(ENTRY, { eval: true });
  // It must not keep a stopping service alive; sessions in progress keep their request open.
  worker.unref();
  let ready: () => void = () => {};
  let failed: (err: Error) => void = () => {};
  threadReady = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  // Awaited at start-up only; a thread started again later reports through its sessions.
  threadReady.catch(() => {});
  worker.on('message', (message: ThreadReply) => {
    if (message.kind === 'ready') ready();
    else listeners.get(message.id)?.reply(message);
  });
  const lose = (err: Error) => {
    failed(err);
    if (thread === worker) thread = null;
    for (const listener of listeners.values()) listener.lost(err);
    listeners.clear();
  };
  worker.on('error', lose);
  worker.on('exit', (code) => lose(new Error(`upload scan thread exited (${code})`)));
  thread = worker;
  return worker;
}

/**
 * Starts the thread if needed and resolves once it has loaded the scanner (~0.2 s of CPU): the
 * service waits for it at start-up, so that is not paid by the first upload.
 */
export function scanThreadReady(): Promise<void> {
  scanThread();
  return threadReady;
}

/**
 * One upload's scan on the thread: receive() feeds it the `file` part; the counts settle when the
 * part is read; each block of batches the thread hands back goes to `store` (in order, one at a
 * time) while the upload arrives; stored() waits for the last. discard() stops storing (a refused
 * or broken upload) and waits until no store runs, so the caller can remove what was stored.
 */
export class ThreadScan {
  private readonly id = nextId++;
  private readonly worker = scanThread();
  private inFlight = 0;
  private drained: (() => void) | null = null;
  private ended = false;
  private over = false;
  private batchesTotal = 0;
  /** The stores of the blocks so far, in order; never rejects (a failure is kept in `failure`). */
  private chain: Promise<void> = Promise.resolve();
  private failure: { err: unknown } | null = null;
  private dropping = false;
  /** The scan's findings, or its refusal; rejected when the scan (or the thread) failed. */
  readonly counts: Promise<RowCounts | 'too_wide'>;

  constructor(
    batchRows: number,
    private readonly store: (batches: NewBatch[]) => Promise<void>,
  ) {
    this.counts = new Promise((resolve, reject) => {
      const settle = () => {
        this.over = true;
        listeners.delete(this.id);
        this.drained?.();
      };
      listeners.set(this.id, {
        reply: (message) => {
          if (message.kind === 'ack') {
            this.inFlight -= message.bytes;
            if (this.inFlight <= SCAN_WINDOW_BYTES) this.drained?.();
            return;
          }
          if (message.kind === 'block') {
            this.storeBlock(message.batches);
            return;
          }
          settle();
          if (message.kind === 'done') {
            this.batchesTotal = message.batches;
            resolve(message.counts);
          } else if (message.kind === 'failed') {
            reject(new Error(`upload scan failed: ${message.message}`));
          }
        },
        lost: (err) => {
          settle();
          reject(err);
        },
      });
    });
    // Awaited by the caller (receive, then the route); not an unhandled rejection meanwhile.
    this.counts.catch(() => {});
    this.send({ id: this.id, kind: 'start', batchRows });
  }

  /**
   * Stores a block after those before it, then tells the thread it may hand over another. Once a
   * store failed, or the upload is being discarded, the blocks still coming are dropped.
   */
  private storeBlock(batches: NewBatch[]): void {
    this.chain = this.chain.then(async () => {
      if (!this.dropping && !this.failure) {
        try {
          await this.store(batches);
        } catch (err) {
          this.failure = { err };
        }
      }
      this.send({ id: this.id, kind: 'stored' });
    });
  }

  private send(message: ThreadRequest, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  /** Sends gathered pieces as one chunk of its own memory, handed over without a copy. */
  private sendChunk(pieces: Buffer[], bytes: number): void {
    const data = new Uint8Array(bytes);
    let at = 0;
    for (const piece of pieces) {
      data.set(piece, at);
      at += piece.length;
    }
    this.inFlight += bytes;
    this.send({ id: this.id, kind: 'chunk', data }, [data.buffer]);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.over) this.send({ id: this.id, kind: 'end' });
  }

  /**
   * Reads the part to its end, sending it to the thread as it arrives; resolves with its bytes.
   * Once the scanner has finished early (a refusal in the header, a row over the bound) the rest
   * is read and dropped, so the multipart body still ends (and a 413 is still seen).
   */
  async receive(source: Readable): Promise<number> {
    let bytes = 0;
    let pieces: Buffer[] = [];
    let gathered = 0;
    try {
      // Not destroyed when left early: busboy must still read the part to its end.
      for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (this.over) continue;
        pieces.push(chunk);
        gathered += chunk.length;
        if (gathered < SEND_BYTES) continue;
        this.sendChunk(pieces, gathered);
        pieces = [];
        gathered = 0;
        if (this.inFlight > SCAN_WINDOW_BYTES && !this.over) {
          await new Promise<void>((resolve) => {
            this.drained = resolve;
          });
          this.drained = null;
        }
      }
      if (gathered > 0 && !this.over) this.sendChunk(pieces, gathered);
    } finally {
      this.end();
    }
    if (!source.readableEnded) {
      source.resume();
      await finished(source);
    }
    return bytes;
  }

  /**
   * Once the scan is done (after counts): waits for every block to be stored; the number of
   * batches in all. Throws the first store's failure.
   */
  async stored(): Promise<number> {
    await this.counts;
    await this.chain;
    if (this.failure) throw this.failure.err;
    return this.batchesTotal;
  }

  /** Stops storing blocks; resolves once the thread is done and no store runs (in every case). */
  async discard(): Promise<void> {
    this.dropping = true;
    this.end();
    await this.counts.catch(() => {});
    await this.chain;
  }
}
