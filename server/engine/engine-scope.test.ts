/**
 * Per-file caches (one MX lookup and one catch-all probe per domain per scope), global and
 * per-MX-host concurrency, and the private-MX guard, against the real fake network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_DOMAINS as D, engineConfigForFakeNet, type FakeNet, startFakeNet } from '../testing/fake-net';
import { createEngine, type EngineLogger } from './engine';

let net: FakeNet;

beforeAll(async () => {
  net = await startFakeNet();
});
afterAll(() => net.stop());

/** RCPT TO lines sent for `domain` whose local part is not one of `locals` (i.e. random probes). */
const randomProbes = (domain: string, locals: string[]) =>
  net
    .allCommands()
    .filter((line) => line.startsWith('RCPT TO:<') && line.endsWith(`@${domain}>`))
    .filter((line) => !locals.some((local) => line === `RCPT TO:<${local}@${domain}>`)).length;

describe('DomainScope', () => {
  it('does one MX lookup and one catch-all probe per domain per scope, shared by concurrent rows', async () => {
    const engine = createEngine(engineConfigForFakeNet(net));
    const locals = ['s1', 's2', 's3', 's4', 's5', 's6'];
    const mxBefore = net.dnsQueryCount(D.catchAll, 'MX');
    const hostBefore = net.dnsQueryCount(`mx.${D.catchAll}`, 'A');
    const probesBefore = randomProbes(D.catchAll, locals);

    const scope = engine.newScope();
    const results = await Promise.all(
      locals.map((local) => engine.verify(`${local}@${D.catchAll}`, 'catch_all', scope)),
    );
    expect(results.map((r) => r.reason)).toEqual(locals.map(() => 'catch_all'));
    expect(net.dnsQueryCount(D.catchAll, 'MX')).toBe(mxBefore + 1);
    expect(net.dnsQueryCount(`mx.${D.catchAll}`, 'A')).toBe(hostBefore + 1);
    expect(randomProbes(D.catchAll, locals)).toBe(probesBefore + 1);

    // Later rows of the same file reuse the answers.
    await engine.verify(`s1@${D.catchAll}`, 'catch_all', scope);
    expect(net.dnsQueryCount(D.catchAll, 'MX')).toBe(mxBefore + 1);
    expect(randomProbes(D.catchAll, locals)).toBe(probesBefore + 1);

    // Another file (scope) looks again.
    await engine.verify(`s1@${D.catchAll}`, 'catch_all', engine.newScope());
    expect(net.dnsQueryCount(D.catchAll, 'MX')).toBe(mxBefore + 2);
    expect(randomProbes(D.catchAll, locals)).toBe(probesBefore + 2);
  });

  it('caches negative answers too, and keeps domains apart', async () => {
    const engine = createEngine(engineConfigForFakeNet(net));
    const scope = engine.newScope();
    const before = net.dnsQueryCount(D.nonexistent, 'MX');
    const deliverableBefore = net.dnsQueryCount(D.deliverable, 'MX');
    await Promise.all(['a', 'b', 'c'].map((l) => engine.verify(`${l}@${D.nonexistent}`, 'catch_all', scope)));
    await engine.verify(`alice@${D.deliverable}`, 'catch_all', scope);
    expect(net.dnsQueryCount(D.nonexistent, 'MX')).toBe(before + 1);
    expect(net.dnsQueryCount(D.deliverable, 'MX')).toBe(deliverableBefore + 1);
  });

  it('without a scope, every verification looks up on its own', async () => {
    const engine = createEngine(engineConfigForFakeNet(net));
    const before = net.dnsQueryCount(D.rejecting, 'MX');
    await engine.verify(`a@${D.rejecting}`, 'catch_all');
    await engine.verify(`b@${D.rejecting}`, 'catch_all');
    expect(net.dnsQueryCount(D.rejecting, 'MX')).toBe(before + 2);
  });
});

/** A logger that tracks how many SMTP conversations are open, per MX host and in all. */
function concurrencyProbe() {
  const open = new Map<string, number>();
  const peak = new Map<string, number>();
  let total = 0;
  let peakTotal = 0;
  const logger: EngineLogger = {
    warn: () => {},
    debug: (details) => {
      const { event, host } = details as { event?: string; host?: string };
      if (!host || (event !== 'smtp-open' && event !== 'smtp-close')) return;
      const delta = event === 'smtp-open' ? 1 : -1;
      const now = (open.get(host) ?? 0) + delta;
      open.set(host, now);
      peak.set(host, Math.max(peak.get(host) ?? 0, now));
      total += delta;
      peakTotal = Math.max(peakTotal, total);
    },
  };
  return { logger, peak, peakTotal: () => peakTotal };
}

describe('concurrency', () => {
  it('keeps at most perHostConcurrency conversations open per MX host', async () => {
    const probe = concurrencyProbe();
    const engine = createEngine(
      { ...engineConfigForFakeNet(net), globalConcurrency: 8, perHostConcurrency: 2 },
      probe.logger,
    );
    const results = await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5'].map((l) => engine.verify(`${l}@${D.slow}`, 'non_catch_all')),
    );
    expect(results.map((r) => r.reason)).toEqual(results.map(() => 'smtp_timeout'));
    expect(probe.peak.get(`mx.${D.slow}`)).toBe(2);
  });

  it('keeps at most globalConcurrency conversations open in all', async () => {
    const probe = concurrencyProbe();
    const engine = createEngine(
      {
        ...engineConfigForFakeNet(net),
        globalConcurrency: 3,
        perHostConcurrency: 8,
        initialHostConcurrency: 8,
      },
      probe.logger,
    );
    const addresses = ['g1', 'g2', 'g3'].flatMap((l) => [`${l}@${D.slow}`, `${l}@${D.slowB}`]);
    await Promise.all(addresses.map((a) => engine.verify(a, 'non_catch_all')));
    expect(probe.peakTotal()).toBe(3);
  });

  it('counts MX hosts of one address against one limit, whatever their names', async () => {
    // mx.slow.test and mx.slow-b.test are two names of one address (fake-net-zone.ts): a
    // wildcard domain cannot get a fresh set of slots for every name.
    const probe = concurrencyProbe();
    const engine = createEngine(
      { ...engineConfigForFakeNet(net), globalConcurrency: 8, perHostConcurrency: 2 },
      probe.logger,
    );
    const addresses = ['w1', 'w2', 'w3'].flatMap((l) => [`${l}@${D.slow}`, `${l}@${D.slowB}`]);
    await Promise.all(addresses.map((a) => engine.verify(a, 'non_catch_all')));
    expect(probe.peakTotal()).toBe(2);
  });
});

describe('private MX guard', () => {
  it('refuses MX hosts on loopback addresses unless allowPrivateMx', async () => {
    const warnings: object[] = [];
    const guarded = createEngine(
      { ...engineConfigForFakeNet(net), allowPrivateMx: false },
      { debug: () => {}, warn: (details) => warnings.push(details) },
    );
    const address = `bob@${D.deliverable}`;
    const refused = await guarded.verify(address, 'catch_all');
    expect(refused).toMatchObject({
      status: 'unknown',
      reason: 'smtp_unreachable',
      mx_host: `mx.${D.deliverable}`,
    });
    expect(refused.checks).toMatchObject({ mx_found: true, smtp_connected: null });
    expect(net.allCommands()).not.toContain(`RCPT TO:<${address}>`);
    expect(warnings).toContainEqual(expect.objectContaining({ host: `mx.${D.deliverable}` }));

    const allowed = createEngine(engineConfigForFakeNet(net));
    expect(await allowed.verify(address, 'catch_all')).toMatchObject({ status: 'deliverable' });
    expect(net.allCommands()).toContain(`RCPT TO:<${address}>`);
  });
});
