/**
 * The scoring test (issue 31, item 6): every address of the simulated provider world
 * (server/testing/providers/) goes through the REAL service over HTTP, once as single checks and
 * once in one bulk CSV, and every verdict is scored against the address's ground truth:
 *
 * - no false deliverable: an address whose server says it does not exist, or does not tell,
 *   is never `deliverable`;
 * - no false undeliverable: an address that exists, or whose server does not tell, is never
 *   `undeliverable`;
 * - decided: every address whose server reveals the truth ends deliverable, undeliverable or
 *   risky (mailbox full) — not `unknown` — in single and bulk alike.
 *
 * The first two hold for every address whatever the scheduler does ("classification" below).
 * "Decided" needs a patient, polite scheduler where the server stands in the way for a while —
 * greylisting, connection limits, per-connection caps, anti-enumeration, error limits — so
 * those expectations are grouped per behaviour under "scheduler (issue 31)". Some of them fail
 * on the scheduler this test was written against (one greylisting retry after
 * GREYLIST_RETRY_MS; 421 connection limits retried once; 5.7.x refusals on a shared connection
 * kept as the answer); they are the lead's target, not a mistake in the test.
 *
 * A last group checks that MX hosts of equal preference share the connections (RFC 5321 §5.1),
 * with sequential single checks that each open a connection of their own.
 *
 * Single checks that met greylisting are asked again once the window has passed (the issue:
 * "the next check of it … is decided"); a single check's first answer must still be honest.
 * Before the bulk file the world's greylister forgets every triplet, so the file meets
 * greylisting afresh. A failing test prints a score table and the SMTP transcripts.
 */
import type { SingleResult, Verdict } from '@verimark/contract';
import pLimit from 'p-limit';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../testing/api';
import { useProviderWorldService } from '../testing/providers/use-world';
import {
  type Behaviour,
  type ConnectionLog,
  formatTranscript,
  type ProviderWorld,
  type WorldAddress,
} from '../testing/providers/world';

/** postgrey's window in this world (the common real one is 300 s). */
const GREYLIST_WINDOW_MS = 4000;
/**
 * The service's environment for this world. GREYLIST_RETRY_MS (the world's 500 ms) stays below
 * the window on purpose, so only the deferred queue can wait greylisting out: bulk rows are tried
 * again just past the window (GREYLIST_WINDOW_MS), and rows turned away by a connection limit
 * after a short back-off (RETRY_BACKOFF_MS).
 */
const SERVICE_ENV = {
  RATE_LIMIT_PER_MIN: '100000',
  VERIFY_DEADLINE_MS: '20000',
  GREYLIST_WINDOW_MS: String(GREYLIST_WINDOW_MS + 500),
  RETRY_BACKOFF_MS: '1000',
};
const MODE = 'catch_all';
const SINGLE_PARALLEL = 8;

interface Outcome {
  status: Verdict;
  reason: string;
}
interface Run {
  verdicts: Map<string, Outcome>;
  /** Single checks only: the first answer of an address asked again after the greylisting window. */
  first: Map<string, Outcome>;
  connections: ConnectionLog[];
  /** How long the run took (for the report only: speed is never asserted). */
  ms: number;
}

const suite = useProviderWorldService({ greylistWindowMs: GREYLIST_WINDOW_MS, env: SERVICE_ENV });
let world: ProviderWorld;
let api: Api;
const runs: { single?: Run; bulk?: Run } = {};

async function runSingles(): Promise<Run> {
  world.reset();
  const started = Date.now();
  const limit = pLimit(SINGLE_PARALLEL);
  const check = async (email: string): Promise<Outcome> => {
    const r: SingleResult = await api.verifyNow(email, MODE);
    return { status: r.status as Verdict, reason: String(r.reason) };
  };
  const verdicts = new Map<string, Outcome>();
  await Promise.all(
    world.addresses.map((a) => limit(async () => verdicts.set(a.email, await check(a.email)))),
  );
  // Greylisted single checks are asked again once the window has passed since their first try.
  const first = new Map<string, Outcome>();
  const again = world.addresses.filter(
    (a) => a.behaviour === 'greylisting' && verdicts.get(a.email)?.status === 'unknown',
  );
  if (again.length > 0) {
    await new Promise((r) => setTimeout(r, GREYLIST_WINDOW_MS + 250));
    await Promise.all(
      again.map((a) =>
        limit(async () => {
          first.set(a.email, verdicts.get(a.email) as Outcome);
          verdicts.set(a.email, await check(a.email));
        }),
      ),
    );
  }
  return { verdicts, first, connections: world.connections(), ms: Date.now() - started };
}

async function runBulk(): Promise<Run> {
  world.reset();
  const started = Date.now();
  const csv = Papa.unparse([['Id', 'Email'], ...world.addresses.map((a, i) => [String(i), a.email])], {
    newline: '\r\n',
  });
  const upload = await api.upload(csv, { mode: MODE }, 'provider-world.csv');
  if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  const done = await api.waitForFile(upload.body.data.file_id, 150_000);
  if (done.status !== 'completed') throw new Error(`the bulk file ended ${done.status}`);
  const text = await (await fetch(done.download_url)).text();
  const [header = [], ...rows] = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
  const at = (name: string) => header.indexOf(name);
  const verdicts = new Map<string, Outcome>();
  for (const row of rows) {
    const address = world.addresses[Number(row[at('Id')])];
    if (!address) continue;
    verdicts.set(address.email, {
      status: row[at('verification_status')] as Verdict,
      reason: row[at('verification_reason')] ?? '',
    });
  }
  return { verdicts, first: new Map(), connections: world.connections(), ms: Date.now() - started };
}

beforeAll(async () => {
  world = suite.world;
  api = suite.api;
  runs.single = await runSingles();
  runs.bulk = await runBulk();
  // VERIMARK_WORLD_REPORT=1 prints both score tables, and with `=<email>` that address's transcripts.
  const wanted = process.env.VERIMARK_WORLD_REPORT;
  if (wanted) {
    for (const kind of ['single', 'bulk'] as const) {
      const run = runs[kind] as Run;
      console.log(report(kind, run, world.addresses));
      if (wanted.includes('@'))
        console.log(`${kind} transcript:\n${formatTranscript(run.connections, wanted)}`);
    }
  }
}, 300_000);

// ---------------------------------------------------------------------------------------------
// Scoring
// ---------------------------------------------------------------------------------------------

type Fault = 'false deliverable' | 'false undeliverable' | 'undecided';

function faultOf(address: WorldAddress, outcome: Outcome | undefined): Fault | null {
  if (!outcome) return 'undecided';
  if (outcome.status === 'deliverable' && address.truth !== 'deliverable') return 'false deliverable';
  if (outcome.status === 'undeliverable' && address.truth !== 'undeliverable') return 'false undeliverable';
  if (outcome.status === 'unknown' && address.truth !== 'hidden') return 'undecided';
  return null;
}

const pad = (text: string, width: number) => text.padEnd(width).slice(0, Math.max(width, text.length));

/** A score table of `addresses` in `run`, faults first, and the transcripts of the first faults. */
function report(kind: string, run: Run, addresses: WorldAddress[]): string {
  const rows = addresses.map((a) => ({
    a,
    o: run.verdicts.get(a.email),
    fault: faultOf(a, run.verdicts.get(a.email)),
  }));
  const faults = rows.filter((r) => r.fault);
  const lines = [
    `${kind}: ${faults.length} of ${rows.length} addresses wrong or undecided (run took ${run.ms} ms)`,
    `${pad('address', 34)} ${pad('site', 40)} ${pad('truth', 13)} ${pad('verdict', 28)} fault`,
    ...[...faults, ...rows.filter((r) => !r.fault)].map(({ a, o, fault }) => {
      const before = run.first.get(a.email);
      const verdict = `${o?.status ?? '—'}/${o?.reason ?? '—'}${before ? ` (first ${before.status}/${before.reason})` : ''}`;
      return `${pad(a.email, 34)} ${pad(a.provider, 40)} ${pad(a.truth, 13)} ${pad(verdict, 28)} ${fault ?? 'ok'}`;
    }),
  ];
  for (const { a } of faults.slice(0, 3))
    lines.push(
      '',
      `transcript of ${a.email}:`,
      formatTranscript(run.connections, a.email) || refusedAt(run, a),
    );
  return lines.join('\n');
}

/** For an address no connection asked for: the connections its MX hosts refused before any RCPT. */
function refusedAt(run: Run, address: WorldAddress): string {
  const hosts = world.sites.find((s) => s.domain === address.domain)?.hosts ?? [];
  const refused = run.connections.filter((c) => hosts.includes(c.host) && c.rcpts.length === 0);
  const [example] = refused;
  if (!example) return '(no connection)';
  const lines = example.lines.map((l) => `${String(l.at).padStart(6)} ${l.from}: ${l.text}`).join('\n');
  return `(no RCPT reached the server; ${refused.length} connections to ${hosts.join(', ')} ended before one, e.g.)\n${lines}`;
}

const runOf = (kind: 'single' | 'bulk'): Run => {
  const run = runs[kind];
  if (!run) throw new Error(`the ${kind} run did not happen`);
  return run;
};

/** Sequential single checks at an equal-preference MX set: each opens a connection of its own. */
const SPREAD_CHECKS = 12;
const SPREAD_DOMAIN = 'globex.test';

/** Behaviours whose addresses a plain, impatient client already decides (or that hide the truth). */
const CLASSIFICATION: Behaviour[] = ['plain', 'accept-all', 'equal-preference-mx', 'slow-greeting', 'tarpit'];
/** Behaviours that need the scheduler to wait, retry on a fresh connection, or open fewer connections. */
const SCHEDULER: Behaviour[] = [
  'greylisting',
  'connection-limit',
  'recipients-per-connection',
  'anti-enumeration',
  'error-limit',
];

/** Every address of this behaviour whose server reveals the truth ended decided, in this run. */
function expectDecided(kind: 'single' | 'bulk', behaviour: Behaviour): void {
  const run = runOf(kind);
  const subset = world.addresses.filter((a) => a.behaviour === behaviour);
  expect(subset.length).toBeGreaterThan(0);
  const undecided = subset.filter((a) => faultOf(a, run.verdicts.get(a.email)) === 'undecided');
  expect(
    undecided.map((a) => a.email),
    report(kind, run, subset),
  ).toEqual([]);
}

describe.each(['single', 'bulk'] as const)('%s checks of the provider world', (kind) => {
  describe('classification (holds whatever the scheduler)', () => {
    it('gives every address a verdict', () => {
      const run = runOf(kind);
      expect(world.addresses.filter((a) => !run.verdicts.has(a.email)).map((a) => a.email)).toEqual([]);
    });

    it('calls no address deliverable that does not exist or whose server does not tell', () => {
      const run = runOf(kind);
      const wrong = world.addresses.filter(
        (a) => faultOf(a, run.verdicts.get(a.email)) === 'false deliverable',
      );
      expect(
        wrong.map((a) => a.email),
        report(kind, run, world.addresses),
      ).toEqual([]);
      for (const [email, first] of run.first)
        expect(first.status, `${email} first answer`).not.toBe('deliverable');
    });

    it('calls no address undeliverable that exists or whose server does not tell', () => {
      const run = runOf(kind);
      const wrong = world.addresses.filter(
        (a) => faultOf(a, run.verdicts.get(a.email)) === 'false undeliverable',
      );
      expect(
        wrong.map((a) => a.email),
        report(kind, run, world.addresses),
      ).toEqual([]);
      for (const [email, first] of run.first)
        expect(first.status, `${email} first answer`).not.toBe('undeliverable');
    });

    it.each(CLASSIFICATION)('decides every address the server reveals: %s', (behaviour) =>
      expectDecided(kind, behaviour),
    );
  });

  describe('scheduler (issue 31): patient and polite', () => {
    it.each(SCHEDULER)('decides every address the server reveals: %s', (behaviour) =>
      expectDecided(kind, behaviour),
    );

    it('never calls a connection limit greylisting', () => {
      const run = runOf(kind);
      const subset = world.addresses.filter((a) => a.behaviour === 'connection-limit');
      const misnamed = subset.filter((a) => run.verdicts.get(a.email)?.reason === 'greylisted');
      expect(
        misnamed.map((a) => a.email),
        report(kind, run, subset),
      ).toEqual([]);
    });
  });
});

describe('equal-preference MX hosts (scheduler, issue 31)', () => {
  // With hosts chosen at random, all 12 connections land on one of two hosts with
  // probability 2^-11: a fair choice passes.
  it('spreads connections over MX hosts of equal preference (RFC 5321 §5.1)', async () => {
    const site = world.sites.find((s) => s.domain === SPREAD_DOMAIN);
    const hosts = site?.mx.map((m) => m.name) ?? [];
    expect(new Set(site?.mx.map((m) => m.priority)).size).toBe(1);
    const from = world.connections().length;
    for (let i = 0; i < SPREAD_CHECKS; i++)
      await api.verifyNow(`${['alice', 'bob', 'ghost1'][i % 3]}@${SPREAD_DOMAIN}`, MODE);
    const connections = world.connections().slice(from);
    const used = (host: string) => connections.filter((c) => c.host === host).length;
    expect(connections.length).toBeGreaterThanOrEqual(SPREAD_CHECKS);
    expect(hosts.map((h) => `${h}=${used(h)}`)).not.toContainEqual(expect.stringMatching(/=0$/));
  }, 60_000);
});

describe('single and bulk agree', () => {
  it('on every address a server reveals (scheduler, issue 31)', () => {
    const single = runOf('single');
    const bulk = runOf('bulk');
    const differ = world.addresses
      .filter((a) => a.truth !== 'hidden')
      .filter((a) => single.verdicts.get(a.email)?.status !== bulk.verdicts.get(a.email)?.status)
      .map((a) => {
        const s = single.verdicts.get(a.email);
        const b = bulk.verdicts.get(a.email);
        return `${a.email} (${a.behaviour}): single ${s?.status}/${s?.reason}, bulk ${b?.status}/${b?.reason}`;
      });
    expect(differ).toEqual([]);
  });
});
