/**
 * The verification engine: syntax → flags → DNS route → SMTP probe (one greylisting retry).
 * Implements Engine of ./types.ts; see docs/design.md §3 for the classification.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Checks, type Mode, untestedChecks } from '@verimark/contract';
import { transientVerdict, verdictForRcpt } from './classify';
import { Destinations } from './destinations';
import { cachedDnsHealth, DEFAULT_DNS_CANARIES } from './dns-health';
import { createResolver, type Route, resolveRoute } from './dns-route';
import { createLimits } from './limits';
import { isDisposable, isFreeProvider, isRoleAccount } from './lists';
import { type Provider, providerOf } from './provider';
import { memo, ScopeRegistry } from './scope';
import { RECIPIENTS_PER_CONNECTION, SessionShare } from './session-share';
import {
  type EngineLogger,
  type ProbeContext,
  type ProbeOutcome,
  type ProbeRequest,
  probe,
} from './smtp-probe';
import type { Connector } from './smtp-session';
import { connectViaSocks, parseSocksProxy } from './socks-egress';
import { suggestAddress } from './suggest';
import { checkSyntax } from './syntax';
import type { DomainScope, Engine, EngineConfig, VerificationResult, VerifyOptions } from './types';

export type { EngineLogger };

const silent: EngineLogger = { debug: () => {}, warn: () => {} };
const DEFAULT_DNS_TIMEOUT_MS = 5000;
/** VERIFY_DEADLINE_MS and MAX_MX_HOSTS when the configuration leaves them out (docs/design.md §4). */
export const DEFAULT_VERIFY_DEADLINE_MS = 60_000;
export const DEFAULT_MAX_MX_HOSTS = 5;
/** A new destination's concurrency window (it grows to perHostConcurrency while it answers). */
export const DEFAULT_INITIAL_HOST_CONCURRENCY = 2;
/** How long a destination whose conversations time out is skipped (DEAD_DESTINATION_MS). */
export const DEFAULT_DEAD_DESTINATION_MS = 5 * 60_000;

/**
 * `work`'s value, or `late()` once `signal` fires first; a rejection of `work` after that is
 * dropped (its connections were cut by the same signal).
 */
function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal, late: () => T): Promise<T> {
  if (signal.aborted) return Promise.resolve(late());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => resolve(late());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

const NOT_TESTED: Checks = untestedChecks();

/** A verdict before the normalized address, flags and suggestion are added. */
type Decision = Omit<VerificationResult, 'email' | 'suggestion' | 'checks' | 'provider'> & {
  checks: Partial<Checks>;
};

/** Verdicts decided by DNS alone. */
function fromRoute(route: Exclude<Route, { kind: 'hosts' }>): Decision {
  switch (route.kind) {
    case 'nxdomain':
      return {
        status: 'undeliverable',
        reason: 'invalid_domain',
        mx_host: null,
        checks: { mx_found: false },
      };
    case 'null-mx':
    case 'no-mx':
      return { status: 'undeliverable', reason: 'no_mx', mx_host: null, checks: { mx_found: false } };
    case 'dns-error':
      // SERVFAIL or a DNS timeout: no mail host can be determined, so none can be reached.
      return { status: 'unknown', reason: 'smtp_unreachable', mx_host: null, checks: {} };
  }
}

function fromProbe(outcome: ProbeOutcome, catchAllMode: boolean, provider: Provider | null): Decision {
  switch (outcome.kind) {
    case 'answered': {
      const catchAll = catchAllMode ? outcome.catchAll : null;
      return {
        ...verdictForRcpt(outcome.reply, catchAll, provider),
        mx_host: outcome.host,
        checks: { smtp_connected: true, catch_all: catchAll },
      };
    }
    case 'transient':
      // 4xx greetings on every host: the server limits connections (not greylisting).
      if (outcome.atGreeting)
        return {
          status: 'unknown',
          reason: 'smtp_unreachable',
          mx_host: outcome.host,
          checks: { smtp_connected: true },
        };
      return { ...transientVerdict(outcome.reply), mx_host: outcome.host, checks: { smtp_connected: true } };
    case 'refused':
      return {
        status: 'unknown',
        reason: outcome.reason,
        mx_host: outcome.host,
        checks: { smtp_connected: true },
      };
    default:
      return {
        status: 'unknown',
        reason: outcome.reason,
        mx_host: outcome.host,
        checks: { smtp_connected: outcome.connected },
      };
  }
}

/** The SOCKS5 egress when SMTP_PROXY is set (its own connect timeout); direct TCP otherwise. */
export function createConnector(config: EngineConfig): Connector | undefined {
  if (!config.smtpProxy) return undefined;
  const proxy = parseSocksProxy(config.smtpProxy);
  const timeout = config.proxyTimeoutMs ?? config.smtpTimeoutMs;
  return (address, port) => connectViaSocks(proxy, address, port, timeout);
}

/** Observers the service passes in (e.g. metrics); the engine works the same without them. */
interface EngineHooks {
  /** Called with the outcome of every SMTP probe (a retry is a second probe). */
  onProbe?(outcome: ProbeOutcome): void;
}

export function createEngine(
  config: EngineConfig,
  logger: EngineLogger = silent,
  hooks: EngineHooks = {},
): Engine {
  const dnsTimeout = config.dnsTimeoutMs ?? Math.min(config.smtpTimeoutMs, DEFAULT_DNS_TIMEOUT_MS);
  const resolver = createResolver(config.dnsServers, dnsTimeout);
  const destinations = new Destinations({
    initial: config.initialHostConcurrency ?? DEFAULT_INITIAL_HOST_CONCURRENCY,
    max: config.perHostConcurrency,
    deadMs: config.deadDestinationMs ?? DEFAULT_DEAD_DESTINATION_MS,
  });
  const ctx: ProbeContext = {
    config,
    resolver,
    limits: createLimits(
      config.globalConcurrency,
      config.perHostConcurrency,
      config.hostSlots,
      config.perDomainConcurrency ?? config.perHostConcurrency,
      destinations,
    ),
    logger,
    connector: createConnector(config),
    destinations,
  };
  const perConnection = config.recipientsPerConnection ?? RECIPIENTS_PER_CONNECTION;
  if (perConnection > 1) ctx.share = new SessionShare(perConnection);
  const alone: ProbeContext = { ...ctx, share: undefined };
  const observedProbe = async (request: ProbeRequest, own = false): Promise<ProbeOutcome> => {
    const outcome = await probe(own ? alone : ctx, request);
    hooks.onProbe?.(outcome);
    return outcome;
  };
  const deadlineMs = config.verifyDeadlineMs ?? DEFAULT_VERIFY_DEADLINE_MS;
  const maxMxHosts = Math.max(1, config.maxMxHosts ?? DEFAULT_MAX_MX_HOSTS);
  const scopes = new ScopeRegistry();
  const dnsHealth = cachedDnsHealth(resolver, config.dnsCanaries ?? DEFAULT_DNS_CANARIES);

  async function verify(
    input: string,
    mode: Mode,
    scope?: DomainScope,
    options: VerifyOptions = {},
  ): Promise<VerificationResult> {
    const stop = options.signal;
    const syntax = checkSyntax(input);
    if (!syntax.ok) {
      return {
        email: syntax.email,
        status: 'undeliverable',
        reason: 'invalid_syntax',
        checks: { ...NOT_TESTED, syntax: false },
        mx_host: null,
        provider: null,
        suggestion: null,
      };
    }
    const { email, local, domain } = syntax;
    const state = scopes.state(scope);
    const flags: Checks = {
      ...NOT_TESTED,
      syntax: true,
      disposable: isDisposable(domain),
      role_account: isRoleAccount(local),
      free_provider: isFreeProvider(domain),
    };
    let provider: Provider | null = null;
    const finish = (part: Decision): VerificationResult => ({
      email,
      status: part.status,
      reason: part.reason,
      mx_host: part.mx_host,
      provider: provider?.name ?? null,
      checks: { ...flags, ...part.checks },
      suggestion: suggestAddress(local, domain),
    });

    // The route and the probe run under the deadline; past it the verification is unknown (and
    // refunded) and whatever it still had open is closed.
    let mxHost: string | null = null;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deadlineMs);
    // Stopped from outside (its file was deleted): as if the deadline had passed, at once.
    const onStop = () => deadline.abort();
    if (stop?.aborted) deadline.abort();
    else stop?.addEventListener('abort', onStop, { once: true });
    const decide = async (): Promise<Decision> => {
      const route = await memo(state.routes, domain, () => resolveRoute(resolver, domain));
      if (route.kind === 'nxdomain' && (await dnsHealth()).usable === false) {
        // The resolver denies domains that certainly exist: its NXDOMAIN is not a verdict.
        logger.warn({ domain }, 'DNS answers NXDOMAIN for well-known domains: not usable');
        return { status: 'unknown', reason: 'dns_unusable', mx_host: null, checks: {} };
      }
      if (route.kind !== 'hosts') return fromRoute(route);
      mxHost = route.hosts[0]?.name ?? null;
      provider = providerOf(mxHost);
      if (flags.disposable) {
        return { status: 'risky', reason: 'disposable', mx_host: mxHost, checks: { mx_found: true } };
      }

      const catchAllMode = mode === 'catch_all';
      const hosts = route.hosts.slice(0, maxMxHosts);
      const signal = deadline.signal;
      const request = {
        email,
        domain,
        hosts,
        catchAllMode,
        scope: state,
        provider,
        signal,
        urgent: options.urgent,
      };
      let outcome = await observedProbe(request, options.alone);
      if (outcome.kind === 'transient' && !signal.aborted) {
        logger.debug({ email, host: outcome.host, reply: outcome.reply }, 'transient answer, retrying once');
        // Spread out (up to half again), so rows refused together do not come back together.
        const wait = config.greylistRetryMs * (1 + Math.random() / 2);
        await sleep(wait, undefined, { signal }).catch(() => {});
        if (!signal.aborted) outcome = await observedProbe(request, options.alone);
      }
      const result = fromProbe(outcome, catchAllMode, provider);
      return { ...result, checks: { mx_found: true, ...result.checks } };
    };
    const timedOut = (): Decision => {
      logger.warn({ domain, deadlineMs }, 'verification deadline passed');
      return {
        status: 'unknown',
        reason: 'smtp_timeout',
        mx_host: mxHost,
        checks: mxHost ? { mx_found: true } : {},
      };
    };
    try {
      return finish(await beforeDeadline(decide(), deadline.signal, timedOut));
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    }
  }

  return { verify, newScope: () => scopes.create() };
}
