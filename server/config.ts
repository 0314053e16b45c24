/**
 * The service's configuration from its environment (docs/self-hosting.md, "Settings"): parsed and
 * checked once at start, with the HELO and PUBLIC_BASE_URL warnings.
 */
import net from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { EngineConfig } from './engine/types';

/** Everything the service reads from its environment (docs/design.md §4). */
export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://…` to share one database between processes; null = SQLite in dataDir. */
  databaseUrl: string | null;
  /** Whether `npm run service` also verifies (RUN_WORKER=0: HTTP only). */
  runWorker: boolean;
  /** How long a worker's claim on a batch or task lasts without renewal (a dead worker's expires). */
  leaseMs: number;
  /** How often an idle worker looks for work another process queued. */
  pollMs: number;
  /** Base of signed download URLs; null = the origin the request came to. */
  publicBaseUrl: string | null;
  /** HMAC key for download URLs; null = generated and kept in DATA_DIR. */
  signingSecret: string | null;
  rateLimitPerMin: number;
  /**
   * Days finished work is kept (RETENTION_DAYS): uploaded rows, results and finished single
   * tasks older than this are removed (server/store/retention.ts); 0 keeps everything.
   */
  retentionDays: number;
  /** How long a stopping process waits for running verifications before it gives them back. */
  shutdownGraceMs: number;
  /**
   * Fastify's trustProxy (TRUST_PROXY): which proxies may set the client address through
   * X-Forwarded-For — false (none, the default) or addresses / CIDR ranges / named ranges. Never
   * `true` or a hop count: both let a client name its own address.
   */
  trustProxy: false | string[];
  engine: EngineConfig;
  /** When bulk rows answered "not now" are tried again (server/jobs/deferral.ts). */
  deferral: DeferralPolicy;
  /** Batches one worker process verifies at the same time. */
  batchConcurrency: number;
  /** Single tasks verified at the same time. */
  singleConcurrency: number;
  /** Rows verified concurrently and committed together. */
  batchRows: number;
  /** Log level for pino. */
  logLevel: string;
}

/** When bulk rows answered "not now" are tried again (server/jobs/deferral.ts). */
export interface DeferralPolicy {
  /** How long a greylisting server is given before a row is tried again (GREYLIST_WINDOW_MS). */
  greylistWindowMs: number;
  /** First back-off after a connection limit or a refusal about us (RETRY_BACKOFF_MS). */
  backoffMs: number;
}

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new ConfigError(`${name} must be an integer ≥ ${min}`);
  return Number(raw);
}

function flag(env: Env, name: string): boolean {
  return ['1', 'true', 'yes', 'on'].includes((env[name] ?? '').trim().toLowerCase());
}

function text(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

/** `loadConfig` for a command's start: a configuration error is printed and exits with status 2. */
export function loadConfigOrExit(): ServiceConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`Configuration error: ${err.message}`);
    process.exit(2);
  }
}

export function loadConfig(env: Env = process.env): ServiceConfig {
  const publicBaseUrl = text(env, 'PUBLIC_BASE_URL');
  if (publicBaseUrl !== null && !URL.canParse(publicBaseUrl)) {
    throw new ConfigError('PUBLIC_BASE_URL must be an absolute URL');
  }
  const helo = text(env, 'SMTP_HELO') ?? hostname();
  const smtpProxy = text(env, 'SMTP_PROXY');
  if (smtpProxy !== null && !isSocks5Url(smtpProxy)) {
    throw new ConfigError('SMTP_PROXY must be socks5://[user:pass@]host:port');
  }
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  }
  const runWorker = text(env, 'RUN_WORKER');
  if (runWorker !== null && !['0', '1'].includes(runWorker))
    throw new ConfigError('RUN_WORKER must be 0 or 1');
  return {
    port: int(env, 'PORT', 8787),
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: resolve(text(env, 'DATA_DIR') ?? '.data'),
    databaseUrl,
    runWorker: runWorker !== '0',
    leaseMs: int(env, 'WORKER_LEASE_MS', 30_000, 1000),
    pollMs: int(env, 'WORKER_POLL_MS', 500, 10),
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, '') ?? null,
    signingSecret: text(env, 'SIGNING_SECRET'),
    rateLimitPerMin: int(env, 'RATE_LIMIT_PER_MIN', 600, 1),
    retentionDays: int(env, 'RETENTION_DAYS', 30),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 5000),
    trustProxy: trustProxy(text(env, 'TRUST_PROXY')),
    engine: {
      dnsServers: (text(env, 'DNS_SERVERS') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      smtpPort: int(env, 'SMTP_PORT', 25, 1),
      heloName: helo,
      mailFrom: text(env, 'SMTP_FROM') ?? `verify@${helo}`,
      smtpTimeoutMs: int(env, 'SMTP_TIMEOUT_MS', 10_000, 1),
      greylistRetryMs: int(env, 'GREYLIST_RETRY_MS', 15_000),
      allowPrivateMx: flag(env, 'ALLOW_PRIVATE_MX'),
      smtpProxy,
      proxyTimeoutMs: int(env, 'SMTP_PROXY_TIMEOUT_MS', 5000, 1),
      globalConcurrency: 32,
      perHostConcurrency: 8,
      perDomainConcurrency: 8,
      verifyDeadlineMs: int(env, 'VERIFY_DEADLINE_MS', 60_000, 100),
      maxMxHosts: int(env, 'MAX_MX_HOSTS', 5, 1),
      deadDestinationMs: int(env, 'DEAD_DESTINATION_MS', 300_000),
    },
    deferral: {
      greylistWindowMs: int(env, 'GREYLIST_WINDOW_MS', 360_000),
      backoffMs: int(env, 'RETRY_BACKOFF_MS', 30_000),
    },
    batchConcurrency: 2,
    singleConcurrency: 16,
    batchRows: 100,
    logLevel: text(env, 'LOG_LEVEL') ?? 'info',
  };
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY besides addresses and CIDRs. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** What to write instead of a TRUST_PROXY that would let clients choose their own address. */
const TRUST_PROXY_INSTEAD =
  "write the reverse proxy's own addresses instead: TRUST_PROXY=127.0.0.1 (or loopback) for a proxy on this machine, its address or CIDR range otherwise (under compose, the network's range, e.g. 172.16.0.0/12); several separated by commas";

/**
 * TRUST_PROXY: unset or `false` → no proxy is trusted (the client address is the connection's);
 * else a comma list of proxy addresses, CIDR ranges or `loopback`/`linklocal`/`uniquelocal`.
 * `true` and hop counts are refused: with them the leftmost X-Forwarded-For entry, which the
 * client writes itself, becomes its address (docs/self-hosting.md, "Behind a reverse proxy").
 */
export function trustProxy(raw: string | null): false | string[] {
  if (raw === null || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') {
    throw new ConfigError(
      `TRUST_PROXY=true is refused: it would trust any sender, so a client could choose its own address with X-Forwarded-For; ${TRUST_PROXY_INSTEAD}`,
    );
  }
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(
      `TRUST_PROXY=${raw} (a hop count) is refused: it trusts whatever sent the request, so a client could choose its own address with X-Forwarded-For; ${TRUST_PROXY_INSTEAD}`,
    );
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = net.isIP(address);
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(RANGE_NAMES.includes(entry) || (family !== 0 && okBits && extra === undefined))) {
      throw new ConfigError(
        `TRUST_PROXY must be a comma list of addresses, CIDR ranges, loopback, linklocal or uniquelocal ("${entry}" is none of them)`,
      );
    }
  }
  return entries.length > 0 ? entries : false;
}

function isSocks5Url(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'socks5:' && url.hostname !== '' && url.port !== '';
}

/** A fully qualified name: at least two labels, letters/digits/hyphens, not an IP literal. */
export function isFqdn(name: string): boolean {
  if (net.isIP(name)) return false;
  const labels = name.replace(/\.$/, '').split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(l));
}

const isLoopbackHost = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

/**
 * Start-up warnings about the HELO name (docs/design.md §4): mail servers check it, and a bad
 * one gets the prober refused or blocklisted.
 */
export function heloWarnings(config: Pick<ServiceConfig, 'host' | 'engine'>): string[] {
  const helo = config.engine.heloName;
  const warnings: string[] = [];
  if (helo.toLowerCase() === 'localhost' && !isLoopbackHost(config.host)) {
    warnings.push(
      `SMTP_HELO is "localhost" while HOST is ${config.host}: mail servers refuse or blocklist such probes; set SMTP_HELO to this host's public name (with matching reverse DNS)`,
    );
  } else if (!isFqdn(helo)) {
    warnings.push(
      `SMTP_HELO "${helo}" is not a fully qualified domain name: many mail servers refuse it; set SMTP_HELO to a name like mail.example.com whose A record and reverse DNS match this host's address`,
    );
  }
  return warnings;
}

/** True for a loopback listening address (127.x, ::1, localhost). */
export function isLoopback(host: string): boolean {
  return /^127\./.test(host) || host === '::1' || host === 'localhost';
}

/**
 * The URL the service is reached at from its own configuration: PUBLIC_BASE_URL, else HOST and
 * the listening port (a wildcard HOST as 127.0.0.1). Never built from a request's headers.
 */
export function serviceUrl(config: Pick<ServiceConfig, 'host' | 'publicBaseUrl'>, port: number): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${port}`;
}
