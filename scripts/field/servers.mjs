/**
 * The servers of the field run, on 127.0.0.x only: knot (DNS for field.test), postgrey, one
 * Postfix instance answering differently on 127.0.0.2/3/4/5/7/8/9, Exim on 127.0.0.6.
 * Configs come from ./templates.
 */
import { chownSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { start, waitForPort } from './processes.mjs';

const TEMPLATES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates');

function render(name, dir, values) {
  let text = readFileSync(path.join(TEMPLATES, name), 'utf8');
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@${key}@`, String(value));
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

function chownTo(target, user) {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user}`);
  const [, , uid, gid] = line.split(':');
  chownSync(target, Number(uid), Number(gid));
}

export async function startKnot(dir, dnsPort) {
  mkdirSync(path.join(dir, 'knot'), { recursive: true });
  copyFileSync(path.join(TEMPLATES, 'field.test.zone'), path.join(dir, 'knot', 'field.test.zone'));
  const conf = render('knot.conf', dir, { DIR: dir, DNS_PORT: dnsPort });
  const child = start('knotd', '/usr/sbin/knotd', ['-c', conf], { logFile: path.join(dir, 'knot.log') });
  await waitForPort('127.0.0.1', dnsPort, 10_000, child);
}

export async function startPostgrey(dir, port, delaySeconds) {
  const db = path.join(dir, 'postgrey');
  mkdirSync(db, { recursive: true });
  chownTo(db, 'postgrey');
  const child = start(
    'postgrey',
    '/usr/sbin/postgrey',
    [`--inet=127.0.0.1:${port}`, `--delay=${delaySeconds}`, `--dbdir=${db}`, '--user=postgrey'],
    { logFile: path.join(dir, 'postgrey.log') },
  );
  await waitForPort('127.0.0.1', port, 15_000, child);
}

export const POSTFIX_HOSTS = [
  '127.0.0.2',
  '127.0.0.3',
  '127.0.0.4',
  '127.0.0.5',
  '127.0.0.7',
  '127.0.0.8',
  '127.0.0.9',
];

export async function startPostfix(dir, prefix, smtpPort, postgreyPort) {
  const conf = path.join(dir, 'postfix');
  for (const sub of ['postfix', 'postfix-queue', 'postfix-data'])
    mkdirSync(path.join(dir, sub), { recursive: true });
  chownTo(path.join(dir, 'postfix-data'), 'postfix');
  for (const name of ['local-users', 'virtual', 'recipient-access', 'blocked.cidr', 'postscreen.cidr']) {
    copyFileSync(path.join(TEMPLATES, name), path.join(conf, name));
  }
  render('main.cf', conf, { DIR: dir, PREFIX: prefix });
  render('master.cf', conf, { DIR: dir, SMTP_PORT: smtpPort, POSTGREY_PORT: postgreyPort });
  const env = { LD_LIBRARY_PATH: `${prefix}/usr/lib/postfix` };
  // `postfix check` creates the queue folders with their owners; master then runs in the
  // foreground (-d) as our child, so stopping it stops every Postfix process.
  const check = start('postfix check', `${prefix}/usr/sbin/postfix`, ['-c', conf, 'check'], { env });
  await new Promise((resolve) => check.once('exit', resolve));
  const master = start('postfix master', `${prefix}/usr/lib/postfix/sbin/master`, ['-c', conf, '-d'], {
    env,
    logFile: path.join(dir, 'postfix-master.out'),
  });
  for (const host of POSTFIX_HOSTS) await waitForPort(host, smtpPort, 15_000, master);
  return path.join(dir, 'postfix.log');
}

export async function startExim(dir, binary, smtpPort) {
  for (const sub of ['exim-spool', 'exim-log']) {
    mkdirSync(path.join(dir, sub), { recursive: true });
    chownTo(path.join(dir, sub), 'Debian-exim');
  }
  const conf = render('exim.conf', dir, { DIR: dir, SMTP_PORT: smtpPort });
  // -bdf: daemon in the foreground; -d+receive writes the SMTP transcript (SMTP<< / SMTP>>).
  const child = start('exim', binary, ['-C', conf, '-bdf', '-d+receive'], {
    logFile: path.join(dir, 'exim.debug'),
  });
  await waitForPort('127.0.0.6', smtpPort, 15_000, child);
  return path.join(dir, 'exim.debug');
}

/** The first line a server sends on a fresh connection (read once, before the cases). */
export function readGreeting(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    let text = '';
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(5000, () => done('(no greeting)'));
    socket.on('data', (chunk) => {
      text += chunk;
      const end = text.indexOf('\r\n');
      if (end >= 0) {
        socket.write('QUIT\r\n');
        done(text.slice(0, end));
      }
    });
    socket.on('error', (error) => done(`(${error.message})`));
    socket.on('close', () => done(text || '(closed)'));
  });
}

/**
 * Commands and replies from a Postfix (debug_peer_list; postscreen's reject lines) or Exim
 * (-d) transcript: `[{ pid, command, reply }]`, a reply being the first line sent back.
 * `greetings` (address → greeting line) turns postscreen's CONNECT lines into the greeting
 * it sent, when that was not a 220.
 */
export function parseTranscript(text, greetings = new Map()) {
  const exchanges = [];
  const open = new Map();
  for (const line of text.split('\n')) {
    const connect = /postscreen\[(\d+)\]: CONNECT from \S+ to \[([\d.]+)\]/.exec(line);
    const greeting = connect && greetings.get(connect[2]);
    if (connect && greeting && !greeting.startsWith('220')) {
      exchanges.push({ pid: connect[1], command: '(connect)', reply: greeting });
      continue;
    }
    const screened =
      /postscreen\[(\d+)\]: NOQUEUE: reject: RCPT from \S+ (.*); from=<[^>]*>, to=<([^>]*)>/.exec(line);
    if (screened) {
      exchanges.push({ pid: screened[1], command: `RCPT TO:<${screened[3]}>`, reply: screened[2] });
      continue;
    }
    // smtpd serves many connections in turn: a new one starts with "connect from".
    const connected = /smtpd\[(\d+)\]: connect from /.exec(line);
    if (connected) {
      open.set(connected[1], { pid: connected[1], command: '(connect)', reply: '' });
      continue;
    }
    const postfix = /smtpd\[(\d+)\]: ([<>]) [^:]+: (.*)$/.exec(line);
    const exim = /^\s*(\d+) SMTP(<<|>>) (.*)$/.exec(line);
    const match = postfix ?? exim;
    if (!match) continue;
    const [, pid, arrow, content] = match;
    if (arrow === '<' || arrow === '<<') {
      const exchange = { pid, command: content, reply: '' };
      exchanges.push(exchange);
      open.set(pid, exchange);
    } else {
      const exchange = open.get(pid);
      if (exchange && !exchange.reply) {
        exchange.reply = content;
        // A greeting other than 220 is part of the story (a 220 is not).
        if (exchange.command === '(connect)' && !content.startsWith('220')) exchanges.push(exchange);
      }
    }
  }
  return exchanges;
}
