/**
 * The upload scanner's thread (server/csv/scan-thread.ts starts it): each session is one upload's
 * `file` part, sent here chunk by chunk as it arrives. The same one pass as in-process — countRows
 * counts the credits and hands each data row to a BatchSpool that writes the batches to the
 * upload's spool file — runs here, beside the service's thread that reads the request, so
 * parsing and serialising no longer wait on (or hold up) receiving.
 */
import { parentPort } from 'node:worker_threads';
import { BatchSpool } from '../jobs/split-upload';
import { countRows } from './scan';
import type { ThreadReply, ThreadRequest } from './scan-thread';

const port = parentPort;
if (!port) throw new Error('scan-thread-worker runs as a worker thread');
/** Bytes taken by the scanner between two acknowledgements (a quarter of the sender's window). */
const ACK_BYTES = 256 * 1024;
const send = (reply: ThreadReply) => port.postMessage(reply);

class Session {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(readonly id: number) {}

  push(chunk: Buffer | null): void {
    if (chunk) this.queue.push(chunk);
    else this.ended = true;
    this.wake?.();
    this.wake = null;
  }

  /**
   * The chunks as they come. What the scanner has taken is acknowledged (the sender's window)
   * every ACK_BYTES rather than per chunk or whenever it waits: a message costs (~0.05 ms), and
   * the sender only waits with more than its window unacknowledged, of which at most ACK_BYTES
   * are taken and the rest still queued here, so it always hears back.
   */
  async *chunks(): AsyncGenerator<Buffer> {
    let taken = 0;
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk) {
        yield chunk;
        taken += chunk.length;
        if (taken >= ACK_BYTES) {
          send({ id: this.id, kind: 'ack', bytes: taken });
          taken = 0;
        }
      } else if (this.ended) {
        return;
      } else {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    }
  }
}

const sessions = new Map<number, Session>();

async function run(id: number, path: string, batchRows: number): Promise<void> {
  const session = new Session(id);
  sessions.set(id, session);
  const spool = new BatchSpool(path, batchRows);
  try {
    const counts = await countRows(session.chunks(), spool);
    const sizes = await spool.finish();
    send({ id, kind: 'done', counts, sizes });
  } catch (err) {
    // The spool's file is closed before the main thread hears of the end (it removes it then).
    await spool.close();
    send({ id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  } finally {
    sessions.delete(id);
  }
}

port.on('message', (message: ThreadRequest) => {
  if (message.kind === 'start') {
    void run(message.id, message.path, message.batchRows);
    return;
  }
  // A session already over (the scanner stopped early: a refusal in the header, a row over the
  // bound) ignores the rest of its upload.
  const session = sessions.get(message.id);
  if (!session) return;
  if (message.kind === 'chunk') {
    session.push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
  } else {
    session.push(null);
  }
});

// Loaded: the service may finish starting (server/csv/scan-thread.ts, scanThreadReady).
send({ id: 0, kind: 'ready' });
