#!/usr/bin/env node
/**
 * `npm run field` (as root): the service against real mail servers on loopback.
 *
 * Installs knot and postgrey when missing, runs Postfix and Exim from private configurations
 * (see packages.mjs), knot as the authoritative DNS server of field.test, then the real service
 * (`npm run service`) pointed at them. Every case goes through the HTTP API (single, then all
 * in one bulk CSV); the table shows what the server actually replied (its SMTP transcript),
 * the verdict, and the verdict expected. Exits 1 on any mismatch. Everything started is
 * stopped at the end, also on Ctrl-C or a failure; everything binds to 127.0.0.x only.
 *
 * Options: --keep (keep the temporary folder with every log), --no-exim.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, verifyBulk, verifySingle } from './api.mjs';
import { CASES, matches } from './cases.mjs';
import { ensureAptTools, ensureExim, ensurePostfix } from './packages.mjs';
import { freePort, portFreeOn, stopAll, useTempDir } from './processes.mjs';
import {
  POSTFIX_HOSTS,
  parseTranscript,
  readGreeting,
  startExim,
  startKnot,
  startPostfix,
  startPostgrey,
} from './servers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = new Set(process.argv.slice(2));
const MX_HOSTS = [...POSTFIX_HOSTS, '127.0.0.6'];
const POSTGREY_DELAY_S = 2;
const GREYLIST_RETRY_MS = 4000;

async function smtpPort() {
  for (const port of [2525, 2526, 2587, 12525]) if (await portFreeOn(MX_HOSTS, port)) return port;
  throw new Error('no free SMTP port on 127.0.0.2-9');
}

/** Where the servers write their SMTP transcripts, and how far each has been read. */
function transcripts(files, greetings) {
  const sizeOf = (file) => (existsSync(file) ? statSync(file).size : 0);
  return {
    mark: () => ({ sizes: files.map(sizeOf) }),
    /** Replies to RCPT TO for `email` (and the random catch-all probe) since `mark`. */
    since(mark, email) {
      const replies = [];
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      files.forEach((file, i) => {
        if (!existsSync(file)) return;
        const text = readFileSync(file).subarray(mark.sizes[i]).toString('utf8');
        for (const { command, reply } of parseTranscript(text, greetings)) {
          if (command === '(connect)') replies.push(`${reply} (greeting)`);
          const rcpt = /^RCPT TO:<([^>]*)>/i.exec(command)?.[1]?.toLowerCase();
          if (rcpt === email.toLowerCase()) replies.push(reply);
          else if (rcpt?.startsWith('vm-') && rcpt.endsWith(`@${domain}`)) replies.push(`random: ${reply}`);
        }
      });
      return replies.length > 0 ? replies.join(' → ') : '(no SMTP)';
    },
  };
}

/** Every socket listening on our ports must be on 127.0.0.x. */
function checkLoopbackOnly(ports) {
  const out = execFileSync('ss', ['-Hltun'], { encoding: 'utf8' });
  const wide = out
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[4] ?? '')
    .filter((local) => ports.some((p) => local.endsWith(`:${p}`)) && !local.startsWith('127.'));
  if (wide.length > 0) throw new Error(`listening beyond loopback: ${wide.join(', ')}`);
}

const cell = (s) => String(s).replaceAll('|', '\\|');

async function main() {
  if (process.getuid?.() !== 0) {
    console.error('npm run field needs root: it installs and runs Postfix, Exim, postgrey and knot.');
    process.exit(2);
  }
  ensureAptTools();
  const postfixPrefix = ensurePostfix();
  let exim = null;
  if (!args.has('--no-exim')) {
    try {
      exim = ensureExim();
    } catch (error) {
      console.warn(`Exim not available, its cases are skipped: ${error.message}`);
    }
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'verimark-field-'));
  chmodSync(dir, 0o755); // Postfix, postgrey and Exim run as their own users
  useTempDir(dir, args.has('--keep'));
  const smtp = await smtpPort();
  const [dnsPort, postgreyPort, servicePort] = [await freePort(), await freePort(), await freePort()];
  console.log(`folder ${dir}; DNS 127.0.0.1:${dnsPort}; SMTP port ${smtp}; service 127.0.0.1:${servicePort}`);

  await startKnot(dir, dnsPort);
  await startPostgrey(dir, postgreyPort, POSTGREY_DELAY_S);
  const postfixLog = await startPostfix(dir, postfixPrefix, smtp, postgreyPort);
  const logs = [postfixLog];
  if (exim) logs.push(await startExim(dir, exim, smtp));
  const service = await startService({
    root: ROOT,
    dir,
    port: servicePort,
    dnsPort,
    smtpPort: smtp,
    greylistRetryMs: GREYLIST_RETRY_MS,
  });
  checkLoopbackOnly([dnsPort, postgreyPort, smtp, servicePort]);

  const greetings = new Map();
  for (const host of POSTFIX_HOSTS) greetings.set(host, await readGreeting(host, smtp));
  const cases = CASES.filter((c) => exim || c.server !== 'exim');
  const log = transcripts(logs, greetings);
  const rows = [];
  for (const c of cases) {
    const mark = log.mark();
    const result = await verifySingle(service, c.email, c.mode);
    const reply = log.since(mark, c.email);
    rows.push({ c, result, reply, pass: matches(c.expect, result) });
    console.log(`${matches(c.expect, result) ? 'ok  ' : 'FAIL'} ${c.id}: ${result.status}/${result.reason}`);
  }

  const bulk = await verifyBulk(service, cases, 'catch_all');
  for (const row of rows) {
    const got = bulk.get(row.c.id);
    const want = row.c.bulk ?? row.c.expect;
    row.bulk = got ? `${got.verification_status}/${got.verification_reason}` : 'missing';
    row.bulkPass = got
      ? got.verification_status === want.status && got.verification_reason === want.reason
      : false;
  }

  console.log('\n| Case | Address (mode) | Server replied (RCPT TO) | Verdict (single) | Expected | Bulk |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const { c, result, reply, pass, bulk: b, bulkPass } of rows) {
    const verdict = `${result.status}/${result.reason}${c.expect.mx_host ? ` via ${result.mx_host}` : ''}`;
    console.log(
      `| ${cell(c.what)} | \`${cell(c.email)}\` (${c.mode}) | ${cell(reply)} | ${pass ? '' : '**'}${verdict}${pass ? '' : '** ✗'} | ${c.expect.status}/${c.expect.reason} | ${b}${bulkPass ? '' : ' ✗'} |`,
    );
  }
  console.log('\nGreetings:');
  for (const [host, line] of greetings) console.log(`  ${host}: ${line}`);
  if (!exim) console.log('\nExim cases skipped (no Exim).');
  const failed = rows.filter((r) => !r.pass || !r.bulkPass);
  console.log(`\n${rows.length - failed.length}/${rows.length} cases as expected (single and bulk).`);
  return failed.length === 0 ? 0 : 1;
}

let code = 1;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping everything`);
    stopAll().then(() => process.exit(130));
  });
}
try {
  code = await main();
} catch (error) {
  console.error(`field run failed: ${error.stack ?? error}`);
} finally {
  await stopAll();
}
process.exit(code);
