/**
 * The real service (`npm run service`) started for the field run, and its HTTP API as a user
 * calls it: single verifications and one bulk CSV.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { start } from './processes.mjs';

export async function startService({ root, dir, port, dnsPort, smtpPort, greylistRetryMs }) {
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: path.join(dir, 'service-data'),
    DNS_SERVERS: `127.0.0.1:${dnsPort}`,
    SMTP_PORT: String(smtpPort),
    SMTP_HELO: 'probe.field.test',
    SMTP_FROM: 'probe@field.test',
    ALLOW_PRIVATE_MX: '1',
    GREYLIST_RETRY_MS: String(greylistRetryMs),
    LOG_LEVEL: 'debug',
  };
  const child = start('service', 'npm', ['run', '--silent', 'service'], {
    cwd: root,
    logFile: path.join(dir, 'service.log'),
    env,
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitInfo) throw new Error(`the service exited: ${child.tail()}`);
    const healthy = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) {
      // The service makes no key itself: the first one comes from the admin command, as in
      // production (the build `npm run service` just made; service:admin would rebuild it under
      // the running service).
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['server/dist/admin.js', 'create-key', '--credits', '100000', '--label', 'field'],
        { cwd: root, env: { ...process.env, ...env } },
      );
      return { base, key: stdout.trim().split('\n').at(-1)?.trim() };
    }
    await sleep(200);
  }
  throw new Error(`the service did not start: ${child.tail()}`);
}

async function call(service, method, route, body) {
  const headers = { 'x-api-key': service.key };
  let payload;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${service.base}${route}`, { method, headers, body: payload });
  const json = await response.json();
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** POST /verify/single, then poll the status until completed. */
export async function verifySingle(service, email, mode) {
  const { task_id } = await call(service, 'POST', '/verify/single', { email, mode });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const data = await call(service, 'POST', '/verify/single/status', { task_id });
    if (data.processing_status === 'completed') return data;
    await sleep(250);
  }
  throw new Error(`task ${task_id} for ${email} not completed after 120 s`);
}

/** A minimal RFC 4180 reader (quoted fields, CRLF). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  const [header, ...body] = rows;
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** Uploads one CSV (columns Case, Email), polls, downloads the results: rows by Case. */
export async function verifyBulk(service, rows, mode) {
  const quote = (s) => `"${s.replaceAll('"', '""')}"`;
  const csv = ['Case,Email', ...rows.map((r) => `${quote(r.id)},${quote(r.email)}`)].join('\r\n');
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'field.csv');
  form.set('fileName', 'field');
  form.set('emailColumn', 'Email');
  form.set('mode', mode);
  const { file_id } = await call(service, 'POST', '/verify/bulk', form);
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const data = await call(service, 'POST', '/verify/bulk/status', { file_id });
    if (data.download_url) {
      const text = await fetch(data.download_url).then((r) => r.text());
      return new Map(parseCsv(text).map((row) => [row.Case, row]));
    }
    if (data.status === 'failed') throw new Error(`bulk file ${file_id} failed`);
    await sleep(500);
  }
  throw new Error(`bulk file ${file_id} not done after 300 s`);
}
