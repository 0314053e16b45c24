/**
 * A real HTTP server on 127.0.0.1 (random port) whose answers a unit test scripts, recording
 * every request. Used to test the client over real HTTP instead of stubbing fetch.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  json: unknown;
  form: FormData | null;
}

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Raw text instead of JSON. */
  text?: string;
}

export type Script = (req: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function record(req: IncomingMessage, base: string): Promise<RecordedRequest> {
  const url = new URL(req.url ?? '/', base);
  const body = await readBody(req);
  const type = String(req.headers['content-type'] ?? '');
  let json: unknown = null;
  let form: FormData | null = null;
  if (type.includes('application/json')) json = JSON.parse(body.toString('utf8'));
  if (type.includes('multipart/form-data')) {
    form = await new Request(url, {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(body),
    }).formData();
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
    json,
    form,
  };
}

export async function startScriptedServer(initial: Script) {
  let script = initial;
  const requests: RecordedRequest[] = [];
  let base = '';
  const server = createServer((req, res) => {
    record(req, base)
      .then(async (recorded) => {
        requests.push(recorded);
        const answer = await script(recorded);
        const headers = { 'content-type': 'application/json', ...answer.headers };
        res.writeHead(answer.status ?? 200, headers);
        res.end(answer.text ?? JSON.stringify(answer.body ?? {}));
      })
      .catch((err: unknown) => {
        res.writeHead(599);
        res.end(String(err));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    setScript(next: Script) {
      script = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A success envelope (api-spec §2.1). */
export function ok(description: string, data: unknown): ScriptedResponse {
  return { body: { message: { status: 'success', statusCode: 200, description }, data } };
}

/** An error body (api-spec §2.2). */
export function fail(status: number, message: string, headers?: Record<string, string>): ScriptedResponse {
  return { status, body: { error: status, message }, headers };
}
