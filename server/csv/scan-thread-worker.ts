/**
 * The upload scanner's thread (server/csv/scan-thread.ts starts it): each session is one upload's
 * `file` part, sent here chunk by chunk as it arrives. The same one pass as in-process — countRows
 * counts the credits and hands each data row to BatchBlocks, whose blocks of batches go back to
 * the service's thread to be stored while the rest arrives — runs here, beside the service's
 * thread that reads the request, so parsing and serialising no longer wait on (or hold up)
 * receiving.
 */
import { parentPort } from 'node:worker_threads';
import { countRows } from './scan';
import type { ThreadReply, ThreadRequest } from './scan-thread';
import { BatchBlocks } from './split-upload';

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
   * every ACK_BYTES rather than per chunk or whenever it waits: a message has a cost, and
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

const sessions = new Map<number, { session: Session; blocks: BatchBlocks }>();

async function run(id: number, batchRows: number): Promise<void> {
  const session = new Session(id);
  const blocks = new BatchBlocks(batchRows, (batches) => send({ id, kind: 'block', batches }));
  sessions.set(id, { session, blocks });
  try {
    const counts = await countRows(session.chunks(), blocks);
    const batches = blocks.finish();
    send({ id, kind: 'done', counts, batches });
  } catch (err) {
    send({ id, kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  } finally {
    sessions.delete(id);
  }
}

port.on('message', (message: ThreadRequest) => {
  if (message.kind === 'start') {
    void run(message.id, message.batchRows);
    return;
  }
  // A session already over (the scanner stopped early: a refusal in the header, a row over the
  // bound) ignores the rest of its upload.
  const entry = sessions.get(message.id);
  if (!entry) return;
  if (message.kind === 'chunk') {
    entry.session.push(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
  } else if (message.kind === 'stored') {
    entry.blocks.stored();
  } else {
    entry.session.push(null);
  }
});

// Loaded: the service may finish starting (server/csv/scan-thread.ts, scanThreadReady).
send({ id: 0, kind: 'ready' });
