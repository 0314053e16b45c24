/**
 * The verification engine's interface, shared by the single-task runner and the bulk worker.
 * Implementation: server/engine/*.ts. Everything here is real: DNS through Node's resolver,
 * SMTP over TCP (EHLO, MAIL FROM, RCPT TO, RSET, QUIT; never DATA).
 */
import type { Checks, Mode, Reason, Verdict } from '@verimark/contract';
import type { HostSlots } from './limits';

export interface EngineConfig {
  /** `host:port` list for Node's resolver; empty = system resolvers. */
  dnsServers: string[];
  /** TCP port used for every MX host (25 in production; a test SMTP server's port in tests). */
  smtpPort: number;
  heloName: string;
  mailFrom: string;
  /** Connect and per-command timeout. */
  smtpTimeoutMs: number;
  /** Delay before the single retry after a 421/450/451 answer. */
  greylistRetryMs: number;
  /** Allow MX hosts that resolve to private or loopback addresses (tests, intranets). */
  allowPrivateMx: boolean;
  /** Concurrent SMTP conversations in all. */
  globalConcurrency: number;
  /** Concurrent SMTP conversations per MX host. */
  perHostConcurrency: number;
  /**
   * Concurrent SMTP conversations for one domain across all its MX hosts, so a domain with many
   * hosts cannot take every global slot. Default: perHostConcurrency.
   */
  perDomainConcurrency?: number;
  /**
   * How long one verification may take in all (VERIFY_DEADLINE_MS): past it the verification
   * ends `unknown` (smtp_timeout) and its connections are closed. Default 60000.
   */
  verifyDeadlineMs?: number;
  /**
   * A new destination's (MX address's) concurrency window; it grows to perHostConcurrency while
   * the destination answers and shrinks when it refuses or times out (./destinations.ts). Default 2.
   */
  initialHostConcurrency?: number;
  /** How long an MX address whose conversations time out is skipped (DEAD_DESTINATION_MS). Default 300000. */
  deadDestinationMs?: number;
  /** MX hosts tried per verification, in priority order (MAX_MX_HOSTS). Default 5. */
  maxMxHosts?: number;
  /** Per-host slots shared with other processes (Postgres); default: this process only. */
  hostSlots?: HostSlots | null;
  /** DNS query timeout (two tries); default: smtpTimeoutMs, at most 5000. */
  dnsTimeoutMs?: number;
  /**
   * Domains that certainly exist: when the resolver says one of them does not, it is broken
   * and NXDOMAIN answers are not verdicts (default: gmail.com, outlook.com, yahoo.com).
   */
  dnsCanaries?: string[];
  /** `socks5://[user:pass@]host:port`: every SMTP connection goes through this proxy. */
  smtpProxy?: string | null;
  /** Connect timeout of the proxy itself (default: smtpTimeoutMs). */
  proxyTimeoutMs?: number;
  /**
   * Recipients one SMTP connection may serve for rows waiting at the same MX address (RSET
   * between; server/engine/session-share.ts); 1 = a connection per address. Default 20.
   */
  recipientsPerConnection?: number;
}

export interface VerificationResult {
  /** Normalized address: trimmed, domain lowercased and in punycode. */
  email: string;
  status: Verdict;
  reason: Reason;
  checks: Checks;
  mx_host: string | null;
  /** Mail provider recognised by the first MX host's name, or null. */
  provider: string | null;
  suggestion: string | null;
}

/**
 * Per-file caches: one MX lookup and one catch-all probe per domain per file.
 * The single-task runner uses a fresh scope per task.
 */
export interface DomainScope {
  readonly kind: 'domain-scope';
}

/** How one verification is run. */
export interface VerifyOptions {
  /** Ends the verification at once, as its deadline would (its file was deleted). */
  signal?: AbortSignal;
  /** A single check someone waits for: its conversations go before bulk rows' (server/engine/limits.ts). */
  urgent?: boolean;
  /** On a connection of its own, not one shared with other rows (a retry after a refusal about us). */
  alone?: boolean;
}

export interface Engine {
  verify(
    email: string,
    mode: Mode,
    scope?: DomainScope,
    options?: VerifyOptions,
  ): Promise<VerificationResult>;
  newScope(): DomainScope;
}
