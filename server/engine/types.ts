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

export interface Engine {
  verify(email: string, mode: Mode, scope?: DomainScope): Promise<VerificationResult>;
  newScope(): DomainScope;
}
