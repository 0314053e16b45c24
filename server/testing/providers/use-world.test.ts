/**
 * The provider world behind the real service, on both stores: the destinations the scheduler's
 * integration tests use (fast and slow hosts, a tarpit, wildcard domains) give the verdicts
 * they are meant to, and the world's logs show where each check went.
 */
import { describe, expect, it } from 'vitest';
import { TEST_STORES } from '../postgres-suite';
import { useProviderWorldService } from './use-world';

describe.each(TEST_STORES)('the provider world behind the service (%s)', (store) => {
  const suite = useProviderWorldService({ store, slowRcptMs: 600, env: { VERIFY_DEADLINE_MS: '15000' } });

  it('fast and slow hosts take ok… addresses and refuse the others', async () => {
    const { api, world } = suite;
    const [fast, slow, nobody] = await Promise.all([
      api.verifyNow(`ok1@${world.fastDomain}`),
      api.verifyNow(`ok2@${world.slowDomain}`),
      api.verifyNow(`nobody@${world.fastDomain}`),
    ]);
    expect([fast.status, slow.status, nobody.status]).toEqual([
      'deliverable',
      'deliverable',
      'undeliverable',
    ]);
    const slowRcpt = world.connectionsFor(`ok2@${world.slowDomain}`)[0]?.lines ?? [];
    const asked = slowRcpt.find((l) => l.from === 'C' && l.text.startsWith('RCPT'))?.at ?? 0;
    const answered = slowRcpt.find((l) => l.from === 'S' && l.text.startsWith('250 2.1.5'))?.at ?? 0;
    expect(answered - asked).toBeGreaterThanOrEqual(550);
  });

  it('a tarpit domain ends unknown after its MX hosts were tried and stayed silent', async () => {
    const { api, world } = suite;
    const result = await api.verifyNow(`alice@${world.tarpitDomain}`);
    expect(result.status).toBe('unknown');
    expect(world.connections('mx1.tarpit.test').length).toBeGreaterThan(0);
  });

  it('wildcard domains reach one address under many MX host names', async () => {
    const { api, world } = suite;
    const results = await Promise.all([1, 2, 3].map((i) => api.verifyNow(`ok@${world.limitedWildcard(i)}`)));
    expect(results.map((r) => r.mx_host)).toEqual([
      'mx.u1.limited-evil.test',
      'mx.u2.limited-evil.test',
      'mx.u3.limited-evil.test',
    ]);
    expect(results.every((r) => r.status !== 'undeliverable')).toBe(true);
    expect(world.connections('limited.evil.test').length).toBeGreaterThanOrEqual(3);
  });
});
