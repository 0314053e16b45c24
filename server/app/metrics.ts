/**
 * The service's Prometheus metrics (docs/design.md §3 "Beyond the contract"), through
 * prom-client with a registry per service instance: HTTP requests by route and status,
 * verifications by verdict, SMTP probes by outcome, and the queue's depth read from the
 * database at each scrape. Process metrics (memory, CPU, event-loop lag) come with them.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { ProbeOutcome } from '../engine/smtp-probe';
import type { Engine } from '../engine/types';
import type { QueueDepth } from '../store/store';

type SmtpOutcome = 'accepted' | 'deferred' | 'refused' | 'timeout' | 'unreachable' | 'error';

/** One label per probe: the RCPT answer's class, or why no answer came. */
function smtpOutcome(outcome: ProbeOutcome): SmtpOutcome {
  switch (outcome.kind) {
    case 'answered':
      return outcome.reply.code < 300 ? 'accepted' : outcome.reply.code < 500 ? 'deferred' : 'refused';
    case 'transient':
      return 'deferred';
    default:
      return outcome.reason === 'smtp_timeout'
        ? 'timeout'
        : outcome.reason === 'smtp_unreachable'
          ? 'unreachable'
          : 'error';
  }
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'verimark_http_requests_total',
    help: 'HTTP requests answered, by method, route and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly verifications = new Counter({
    name: 'verimark_verifications_total',
    help: 'Addresses verified (single tasks and file rows), by verdict.',
    labelNames: ['verdict'] as const,
    registers: [this.registry],
  });
  private readonly probes = new Counter({
    name: 'verimark_smtp_probes_total',
    help: 'SMTP probes (one conversation per MX host tried until one answers), by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(queueDepth: () => QueueDepth | Promise<QueueDepth>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'verimark_' });
    new Gauge({
      name: 'verimark_queue_depth',
      help: 'Work in the database not yet finished: bulk files and single tasks, by state.',
      labelNames: ['kind', 'state'] as const,
      registers: [this.registry],
      async collect() {
        const depth = await queueDepth();
        this.set({ kind: 'file', state: 'pending' }, depth.files.pending);
        this.set({ kind: 'file', state: 'processing' }, depth.files.processing);
        this.set({ kind: 'task', state: 'pending' }, depth.tasks.pending);
      },
    });
  }

  /** Counts every answered request under its route pattern (`unmatched` for 404s off-route). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      this.requests.inc({
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      });
    });
  }

  /** The engine, counting each verdict it returns. */
  observeEngine(engine: Engine): Engine {
    return {
      newScope: () => engine.newScope(),
      // Every argument passed on: the options carry the stop signal and a single check's priority.
      verify: async (email, mode, scope, options) => {
        const result = await engine.verify(email, mode, scope, options);
        this.verifications.inc({ verdict: result.status });
        return result;
      },
    };
  }

  /** For the engine's onProbe hook. */
  readonly onProbe = (outcome: ProbeOutcome): void => {
    this.probes.inc({ outcome: smtpOutcome(outcome) });
  };
}
