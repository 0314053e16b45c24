/**
 * The verification engine: syntax → flags → DNS route → SMTP probe (one greylisting retry).
 * Implements Engine of ./types.ts; see docs/design.md §3 for the classification.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Checks, type Mode, untestedChecks } from '@verimark/contract';
import { transientVerdict, verdictForRcpt } from './classify';
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
import type { DomainScope, Engine, EngineConfig, VerificationResult } from './types';

export type { EngineLogger };

const silent: EngineLogger = { debug: () => {}, warn: () => {} };
const DEFAULT_DNS_TIMEOUT_MS = 5000;

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
  const ctx: ProbeContext = {
    config,
    resolver,
    limits: createLimits(config.globalConcurrency, config.perHostConcurrency, config.hostSlots),
    logger,
    connector: createConnector(config),
  };
  const perConnection = config.recipientsPerConnection ?? RECIPIENTS_PER_CONNECTION;
  if (perConnection > 1) ctx.share = new SessionShare(perConnection);
  const observedProbe = async (request: ProbeRequest): Promise<ProbeOutcome> => {
    const outcome = await probe(ctx, request);
    hooks.onProbe?.(outcome);
    return outcome;
  };
  const scopes = new ScopeRegistry();
  const dnsHealth = cachedDnsHealth(resolver, config.dnsCanaries ?? DEFAULT_DNS_CANARIES);

  async function verify(input: string, mode: Mode, scope?: DomainScope): Promise<VerificationResult> {
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

    const route = await memo(state.routes, domain, () => resolveRoute(resolver, domain));
    if (route.kind === 'nxdomain' && (await dnsHealth()).usable === false) {
      // The resolver denies domains that certainly exist: its NXDOMAIN is not a verdict.
      logger.warn({ domain }, 'DNS answers NXDOMAIN for well-known domains: not usable');
      return finish({ status: 'unknown', reason: 'dns_unusable', mx_host: null, checks: {} });
    }
    if (route.kind !== 'hosts') return finish(fromRoute(route));
    const mxHost = route.hosts[0]?.name ?? null;
    provider = providerOf(mxHost);
    if (flags.disposable) {
      return finish({ status: 'risky', reason: 'disposable', mx_host: mxHost, checks: { mx_found: true } });
    }

    const catchAllMode = mode === 'catch_all';
    const request = { email, domain, hosts: route.hosts, catchAllMode, scope: state, provider };
    let outcome = await observedProbe(request);
    if (outcome.kind === 'transient') {
      logger.debug({ email, host: outcome.host, reply: outcome.reply }, 'transient answer, retrying once');
      await sleep(config.greylistRetryMs);
      outcome = await observedProbe(request);
    }
    const result = fromProbe(outcome, catchAllMode, provider);
    return finish({ ...result, checks: { mx_found: true, ...result.checks } });
  }

  return { verify, newScope: () => scopes.create() };
}
