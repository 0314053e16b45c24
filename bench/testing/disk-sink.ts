/**
 * The upload benchmark's floor: a Fastify server with the service's multipart settings whose one
 * route only streams the `file` part to disk — no scanning, no database. The bench sends it the
 * same multipart request as the service, from the same client, both servers in child processes.
 *
 *   node --import tsx bench/testing/disk-sink.ts <dir>   (prints "disk sink listening on <url>")
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { MAX_UPLOAD_BYTES, PATHS } from '@verimark/contract';
import Fastify from 'fastify';

const dir = process.argv[2] ?? '.';
const app = Fastify({ bodyLimit: 64 * 1024 });
await app.register(multipart, { throwFileSizeLimit: false });
let count = 0;
app.post(PATHS.bulk, async (request) => {
  const parts = request.parts({
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
  });
  for await (const part of parts) {
    if (part.type === 'file') await pipeline(part.file, createWriteStream(join(dir, `sink-${count++}.csv`)));
  }
  return { error: 0, message: 'stored' };
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`disk sink listening on ${url}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
