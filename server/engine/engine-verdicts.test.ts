/**
 * Every verdict and reason of docs/design.md §3, produced by the real engine against a real DNS
 * server and a real SMTP server on loopback (server/testing/fake-net.ts).
 */

import { REASONS, VERDICTS } from '@verimark/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DOMAINS as D, engineConfigForFakeNet, type FakeNet, startFakeNet } from '../testing/fake-net';
import { startFakeDns } from '../testing/fake-net-dns';
import { createEngine } from './engine';
import type { Engine, VerificationResult } from './types';

let net: FakeNet;
let engine: Engine;
const seen: VerificationResult[] = [];

beforeAll(async () => {
  net = await startFakeNet();
  engine = createEngine(engineConfigForFakeNet(net));
});
afterAll(() => net.stop());

const verify = async (email: string, mode: 'catch_all' | 'non_catch_all' = 'catch_all') => {
  const result = await engine.verify(email, mode);
  seen.push(result);
  return result;
};

type Row = [string, Partial<VerificationResult>, Partial<VerificationResult['checks']>?];

const rows: Row[] = [
  [
    `alice@${D.deliverable}`,
    { status: 'deliverable', reason: 'accepted_email', mx_host: `mx.${D.deliverable}` },
    {
      syntax: true,
      mx_found: true,
      smtp_connected: true,
      catch_all: false,
      disposable: false,
      role_account: false,
      free_provider: false,
    },
  ],
  [
    `zed@${D.deliverable}`,
    { status: 'undeliverable', reason: 'rejected_email' },
    { smtp_connected: true, catch_all: null },
  ],
  [
    `anyone@${D.catchAll}`,
    { status: 'risky', reason: 'catch_all', mx_host: `mx.${D.catchAll}` },
    { catch_all: true },
  ],
  [`alice@${D.rejecting}`, { status: 'undeliverable', reason: 'rejected_email' }],
  [`alice@${D.policy}`, { status: 'unknown', reason: 'blocked' }, { smtp_connected: true }],
  [`alice@${D.oddReply}`, { status: 'unknown', reason: 'smtp_error' }, { smtp_connected: true }],
  [
    `anyone@${D.yahooHosted}`,
    { status: 'unknown', reason: 'accept_all_provider', provider: 'yahoo' },
    { smtp_connected: true, catch_all: null },
  ],
  [
    `anyone@${D.gmailHosted}`,
    { status: 'deliverable', reason: 'accepted_email', provider: 'google' },
    { smtp_connected: true, catch_all: null },
  ],
  [
    `anyone@${D.m365Tenant}`,
    { status: 'risky', reason: 'catch_all', provider: 'microsoft' },
    { smtp_connected: true, catch_all: true },
  ],
  [`alice@${D.mailboxFull}`, { status: 'risky', reason: 'mailbox_full' }],
  [`alice@${D.mailboxFull452}`, { status: 'risky', reason: 'mailbox_full' }],
  [`alice@${D.greylisted}`, { status: 'unknown', reason: 'greylisted', mx_host: `mx.${D.greylisted}` }],
  [`alice@${D.slow}`, { status: 'unknown', reason: 'smtp_timeout' }, { smtp_connected: true }],
  [`alice@${D.tarpit}`, { status: 'unknown', reason: 'smtp_timeout' }, { smtp_connected: false }],
  [
    `alice@${D.unreachable}`,
    { status: 'unknown', reason: 'smtp_unreachable', mx_host: `mx.${D.unreachable}` },
    { mx_found: true, smtp_connected: false },
  ],
  [
    `alice@${D.aFallback}`,
    { status: 'deliverable', reason: 'accepted_email', mx_host: D.aFallback },
    { mx_found: true },
  ],
  [
    `alice@${D.noMail}`,
    { status: 'undeliverable', reason: 'no_mx', mx_host: null },
    { mx_found: false, smtp_connected: null },
  ],
  [`alice@${D.nullMx}`, { status: 'undeliverable', reason: 'no_mx', mx_host: null }, { mx_found: false }],
  [
    `alice@${D.nonexistent}`,
    { status: 'undeliverable', reason: 'invalid_domain', mx_host: null },
    { mx_found: false },
  ],
  [
    `alice@${D.servfail}`,
    { status: 'unknown', reason: 'smtp_unreachable' },
    { mx_found: null, smtp_connected: null },
  ],
  [`alice@${D.dnsSilent}`, { status: 'unknown', reason: 'smtp_unreachable' }, { mx_found: null }],
  [
    `alice@${D.disposable}`,
    { status: 'risky', reason: 'disposable', mx_host: `mx.${D.disposable}` },
    { disposable: true, mx_found: true, smtp_connected: null, catch_all: null },
  ],
  [
    `alice@${D.freeProvider}`,
    { status: 'deliverable', reason: 'accepted_email' },
    { free_provider: true, disposable: false },
  ],
  [`info@${D.deliverable}`, { status: 'deliverable', reason: 'accepted_email' }, { role_account: true }],
  [
    `alice@${D.unicode}`,
    { email: `alice@${D.unicodeAscii}`, status: 'deliverable', reason: 'accepted_email' },
  ],
  [
    'not an address',
    { status: 'undeliverable', reason: 'invalid_syntax', mx_host: null },
    {
      syntax: false,
      mx_found: null,
      smtp_connected: null,
      catch_all: null,
      disposable: null,
      role_account: null,
      free_provider: null,
    },
  ],
];

describe('engine verdicts (catch_all mode)', () => {
  it.each(rows)('%s', async (email, expected, checks = {}) => {
    const result = await verify(email);
    expect(result).toMatchObject(expected);
    expect(result.checks).toMatchObject(checks);
    expect(Object.keys(result.checks).sort()).toEqual([
      'catch_all',
      'disposable',
      'free_provider',
      'mx_found',
      'role_account',
      'smtp_connected',
      'syntax',
    ]);
  });

  it('retries a greylisted address once and then gets its real answer', async () => {
    const address = `carol@${D.greylistOnce}`;
    expect(await verify(address)).toMatchObject({ status: 'deliverable', reason: 'accepted_email' });
    expect(net.allCommands().filter((line) => line === `RCPT TO:<${address}>`)).toHaveLength(2);
  });

  it('retries an always-greylisting server exactly once', async () => {
    const address = `dave@${D.greylisted}`;
    expect(await verify(address)).toMatchObject({ status: 'unknown', reason: 'greylisted' });
    expect(net.allCommands().filter((line) => line === `RCPT TO:<${address}>`)).toHaveLength(2);
  });

  it('moves on to the next MX host, in priority order, when the first refuses connections', async () => {
    const before = net.dnsLog.length;
    const result = await verify(`alice@${D.nextMx}`);
    expect(result).toMatchObject({
      status: 'deliverable',
      reason: 'accepted_email',
      mx_host: `mx2.${D.nextMx}`,
    });
    const asked = net.dnsLog.slice(before).map((q) => `${q.type} ${q.name}`);
    expect(asked.indexOf(`A mx1.${D.nextMx}`)).toBeGreaterThanOrEqual(0);
    expect(asked.indexOf(`A mx1.${D.nextMx}`)).toBeLessThan(asked.indexOf(`A mx2.${D.nextMx}`));
  });

  it('never opens an SMTP connection for a disposable domain', async () => {
    await verify(`bob@${D.disposable}`);
    expect(net.connectionsFor(D.disposable)).toHaveLength(0);
  });

  it('adds a did-you-mean suggestion', async () => {
    expect((await verify('alice@gmial.com')).suggestion).toBe('alice@gmail.com');
    expect((await verify(`alice@${D.deliverable}`)).suggestion).toBeNull();
  });
});

describe('engine verdicts (non_catch_all mode)', () => {
  it('accepts on 250 without probing a random address', async () => {
    const address = `nocheck@${D.catchAll}`;
    const result = await verify(address, 'non_catch_all');
    expect(result).toMatchObject({ status: 'deliverable', reason: 'accepted_email' });
    expect(result.checks.catch_all).toBeNull();
    const [connection] = net.smtpLog.filter((c) => c.commands.includes(`RCPT TO:<${address}>`));
    expect(connection?.commands.map((l) => l.split(/[ :]/)[0])).toEqual(['EHLO', 'MAIL', 'RCPT', 'QUIT']);
  });
});

describe('bad input', () => {
  it.each([
    ['  Alice@Deliverable.TEST  ', 'Alice@deliverable.test', 'deliverable'],
    ['alice@deliverable.test.', 'alice@deliverable.test', 'deliverable'],
    ['ALICE@DELIVERABLE.TEST', 'ALICE@deliverable.test', 'deliverable'],
    ['alice @deliverable.test', 'alice @deliverable.test', 'undeliverable'],
    ['alice@deliverable.test..', 'alice@deliverable.test..', 'undeliverable'],
    [`${'a'.repeat(65)}@${D.deliverable}`, `${'a'.repeat(65)}@${D.deliverable}`, 'undeliverable'],
    [`alice@${'b'.repeat(64)}.test`, `alice@${'b'.repeat(64)}.test`, 'undeliverable'],
    ['', '', 'undeliverable'],
  ])('%j', async (input, email, status) => {
    const result = await verify(input);
    expect(result.email).toBe(email);
    expect(result.status).toBe(status);
    if (status === 'undeliverable') expect(result.reason).toBe('invalid_syntax');
  });
});

describe('provider rules', () => {
  it('skips the catch-all probe for consumer Gmail and Yahoo, probes a Microsoft 365 tenant', async () => {
    for (const domain of [D.gmailHosted, D.yahooHosted, D.m365Tenant]) await verify(`probe@${domain}`);
    const verbs = (domain: string) =>
      net.connectionsFor(domain).flatMap((c) => c.commands.map((l) => l.split(/[ :]/)[0]));
    expect(verbs(D.gmailHosted)).not.toContain('RSET');
    expect(verbs(D.yahooHosted)).not.toContain('RSET');
    expect(verbs(D.m365Tenant)).toContain('RSET');
  });

  it('reports no provider for a mail host it does not know', async () => {
    expect((await verify(`alice@${D.deliverable}`)).provider).toBeNull();
  });
});

describe('a resolver that answers NXDOMAIN for everything', () => {
  let broken: Awaited<ReturnType<typeof startFakeDns>>;
  beforeAll(async () => {
    broken = await startFakeDns({});
  });
  afterAll(() => broken.stop());

  it('gives unknown/dns_unusable instead of invalid_domain, and asks the canaries once a minute', async () => {
    const blind = createEngine({ ...engineConfigForFakeNet(net), dnsServers: [broken.address] });
    for (const email of [`alice@${D.freeProvider}`, `bob@${D.deliverable}`]) {
      const result = await blind.verify(email, 'catch_all');
      seen.push(result);
      expect(result).toMatchObject({ status: 'unknown', reason: 'dns_unusable', mx_host: null });
    }
    expect(broken.queries.filter((q) => q.name === 'outlook.com' && q.type === 'MX')).toHaveLength(1);
  });

  it('still says invalid_domain for a domain that does not exist when the resolver is sound', async () => {
    expect(await verify(`alice@${D.nonexistent}`)).toMatchObject({ reason: 'invalid_domain' });
  });
});

describe('coverage of docs/design.md §3', () => {
  it('produced every verdict and every reason, and never sent DATA', () => {
    expect(new Set(seen.map((r) => r.status))).toEqual(new Set(VERDICTS));
    expect(new Set(seen.map((r) => r.reason))).toEqual(new Set(REASONS));
    const verbs = new Set(net.allCommands().map((line) => line.split(/[ :]/)[0]?.toUpperCase()));
    expect([...verbs].sort()).toEqual(['EHLO', 'MAIL', 'QUIT', 'RCPT', 'RSET']);
  });
});
