/**
 * One SMTP probe of one address: MX hosts in priority order (next host when a connection
 * fails), greeting, EHLO (HELO fallback), MAIL FROM, RCPT TO, and in catch_all mode a random
 * address on the same connection after RSET. QUIT at the end. Never DATA.
 */
import { randomBytes } from 'node:crypto';
import { classifyRcpt, isTransient } from './classify';
import { type MailHost, type Resolver, resolveAddresses } from './dns-route';
import { isPrivateAddress } from './ip-guard';
import type { Limits } from './limits';
import { memo, type ScopeState } from './scope';
import { openSmtpSession, SmtpFailure, type SmtpReply, type SmtpSession } from './smtp-session';
import type { EngineConfig } from './types';

export interface EngineLogger {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface ProbeContext {
  config: EngineConfig;
  resolver: Resolver;
  limits: Limits;
  logger: EngineLogger;
}

export type FailureReason = 'smtp_timeout' | 'smtp_unreachable' | 'smtp_error';

export type ProbeOutcome =
  /** RCPT TO was answered; catchAll is the random-address result (null: not probed or unclear). */
  | { kind: 'answered'; host: string; reply: SmtpReply; catchAll: boolean | null }
  /** 421/450/451 at the greeting, MAIL FROM or RCPT TO. */
  | { kind: 'transient'; host: string; reply: SmtpReply }
  /** connected: an SMTP session was opened (true), tried but none (false), never tried (null). */
  | { kind: 'failed'; host: string | null; reason: FailureReason; connected: boolean | null };

export interface ProbeRequest {
  email: string;
  domain: string;
  hosts: MailHost[];
  catchAllMode: boolean;
  scope: ScopeState;
}

/** Addresses tried per MX host, so a host with many A records cannot stall a probe. */
const ADDRESSES_PER_HOST = 2;

const mailFromLine = (from: string) => `MAIL FROM:<${from}>`;

async function isCatchAll(ctx: ProbeContext, session: SmtpSession, domain: string): Promise<boolean | null> {
  try {
    if ((await session.command('RSET')).code !== 250) return null;
    if ((await session.command(mailFromLine(ctx.config.mailFrom))).code !== 250) return null;
    const random = `vm-${randomBytes(8).toString('hex')}@${domain}`;
    const answer = classifyRcpt(await session.command(`RCPT TO:<${random}>`));
    return answer === 'accepted' ? true : answer === 'rejected' ? false : null;
  } catch {
    return null;
  }
}

async function converse(
  ctx: ProbeContext,
  session: SmtpSession,
  host: string,
  req: ProbeRequest,
): Promise<ProbeOutcome> {
  const transientOrError = (reply: SmtpReply): ProbeOutcome =>
    isTransient(reply)
      ? { kind: 'transient', host, reply }
      : { kind: 'failed', host, reason: 'smtp_error', connected: true };
  if (session.greeting.code !== 220) return transientOrError(session.greeting);
  const { heloName, mailFrom } = ctx.config;
  let hello = await session.command(`EHLO ${heloName}`);
  if (hello.code !== 250) hello = await session.command(`HELO ${heloName}`);
  if (hello.code !== 250) return transientOrError(hello);
  const mail = await session.command(mailFromLine(mailFrom));
  if (mail.code !== 250) return transientOrError(mail);
  const reply = await session.command(`RCPT TO:<${req.email}>`);
  if (isTransient(reply)) return { kind: 'transient', host, reply };
  let catchAll: boolean | null = null;
  if (req.catchAllMode && classifyRcpt(reply) === 'accepted') {
    catchAll = await memo(req.scope.catchAll, req.domain, () => isCatchAll(ctx, session, req.domain));
  }
  return { kind: 'answered', host, reply, catchAll };
}

type Attempt = ProbeOutcome | { kind: 'next'; timedOut: boolean };

async function attempt(
  ctx: ProbeContext,
  host: string,
  address: string,
  req: ProbeRequest,
): Promise<Attempt> {
  const { smtpPort, smtpTimeoutMs } = ctx.config;
  let session: SmtpSession;
  try {
    session = await openSmtpSession(address, smtpPort, smtpTimeoutMs);
  } catch (error) {
    const timedOut = error instanceof SmtpFailure && error.kind === 'timeout';
    ctx.logger.debug({ host, address, error: String(error) }, 'smtp connection failed');
    return { kind: 'next', timedOut };
  }
  try {
    return await converse(ctx, session, host, req);
  } catch (error) {
    const timedOut = error instanceof SmtpFailure && error.kind === 'timeout';
    ctx.logger.debug({ host, address, error: String(error) }, 'smtp conversation failed');
    return { kind: 'failed', host, reason: timedOut ? 'smtp_timeout' : 'smtp_error', connected: true };
  } finally {
    await session.quit();
  }
}

async function addressesOf(ctx: ProbeContext, req: ProbeRequest, host: string): Promise<string[]> {
  try {
    const all = await memo(req.scope.addresses, host, () => resolveAddresses(ctx.resolver, host));
    if (ctx.config.allowPrivateMx) return all;
    const allowed = all.filter((address) => !isPrivateAddress(address));
    if (allowed.length < all.length)
      ctx.logger.warn({ host, addresses: all }, 'refused MX host on a private address');
    return allowed;
  } catch (error) {
    ctx.logger.debug({ host, error: String(error) }, 'MX host address lookup failed');
    return [];
  }
}

export async function probe(ctx: ProbeContext, req: ProbeRequest): Promise<ProbeOutcome> {
  let tried = false;
  let timedOut = false;
  for (const { name } of req.hosts) {
    for (const address of (await addressesOf(ctx, req, name)).slice(0, ADDRESSES_PER_HOST)) {
      tried = true;
      const result = await ctx.limits.run(name, async () => {
        ctx.logger.debug({ event: 'smtp-open', host: name, address }, 'smtp conversation');
        try {
          return await attempt(ctx, name, address, req);
        } finally {
          ctx.logger.debug({ event: 'smtp-close', host: name, address }, 'smtp conversation ended');
        }
      });
      if (result.kind !== 'next') return result;
      timedOut ||= result.timedOut;
    }
  }
  return {
    kind: 'failed',
    host: req.hosts[0]?.name ?? null,
    reason: timedOut ? 'smtp_timeout' : 'smtp_unreachable',
    connected: tried ? false : null,
  };
}
