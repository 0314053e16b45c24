/**
 * One SMTP probe of one address: MX hosts in priority order, greeting, EHLO (HELO fallback),
 * MAIL FROM, RCPT TO, and in catch_all mode a random address on the same connection after
 * RSET. QUIT at the end. Never DATA, never pipelined.
 *
 * As a real sender does, a refused connection, a greeting other than 220 (421, 554, …) or a
 * dropped connection moves on to the next MX host; a connection dropped mid-dialogue is
 * reconnected once first. Only when every host has failed does the probe give up.
 */
import { randomBytes } from 'node:crypto';
import { classifyRcpt, classifyRefusal } from './classify';
import type { Destinations, Feedback } from './destinations';
import { type MailHost, type Resolver, resolveAddresses } from './dns-route';
import { isPrivateAddress } from './ip-guard';
import type { Limits } from './limits';
import type { Provider } from './provider';
import { memo, type ScopeState } from './scope';
import type { SessionShare } from './session-share';
import {
  type Connector,
  openSmtpSession,
  SmtpFailure,
  type SmtpReply,
  type SmtpSession,
} from './smtp-session';
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
  /** The SOCKS5 egress when SMTP_PROXY is set; direct TCP otherwise. */
  connector?: Connector;
  /** Test seam: opens the SMTP session for an MX address some other way. */
  open?: (address: string) => Promise<SmtpSession>;
  /** Connections shared by rows of the same MX address (./session-share.ts); none: one each. */
  share?: SessionShare;
  /** Concurrency windows and dead-destination memory per MX address (./destinations.ts). */
  destinations?: Destinations;
}

type FailureReason = 'smtp_timeout' | 'smtp_unreachable' | 'smtp_error';

export type ProbeOutcome =
  /** RCPT TO was answered; catchAll is the random-address result (null: not probed or unclear). */
  | { kind: 'answered'; host: string; reply: SmtpReply; catchAll: boolean | null }
  /**
   * A 4xx at EHLO, MAIL FROM or RCPT TO; or at the greeting of every host (`atGreeting`: the
   * server limits connections, e.g. Exim's 421 too many concurrent connections).
   */
  | { kind: 'transient'; host: string; reply: SmtpReply; atGreeting?: boolean }
  /** A 5xx before RCPT TO: about us (blocked) or not understood (smtp_error). */
  | { kind: 'refused'; host: string; reply: SmtpReply; reason: 'blocked' | 'smtp_error' }
  /** connected: an SMTP session was opened (true), tried but none (false), never tried (null). */
  | { kind: 'failed'; host: string | null; reason: FailureReason; connected: boolean | null };

export interface ProbeRequest {
  email: string;
  domain: string;
  hosts: MailHost[];
  catchAllMode: boolean;
  scope: ScopeState;
  /** The provider of the first MX host, when recognised. */
  provider?: Provider | null;
  /** The verification's deadline: no new host is tried and open connections are cut once it fires. */
  signal?: AbortSignal;
  /** A single check someone waits for: its conversations start before bulk rows' (./limits.ts). */
  urgent?: boolean;
}

/** Addresses tried per MX host, so a host with many A records cannot stall a probe. */
const ADDRESSES_PER_HOST = 2;

const mailFromLine = (from: string) => `MAIL FROM:<${from}>`;

async function isCatchAll(ctx: ProbeContext, session: SmtpSession, domain: string): Promise<boolean | null> {
  try {
    if ((await session.command('RSET')).code !== 250) return null;
    if ((await session.command(mailFromLine(ctx.config.mailFrom))).code !== 250) return null;
    const random = `vm-${randomBytes(8).toString('hex')}@${domain}`;
    // A 4xx here (e.g. 452 4.5.3 too many recipients) or a refusal about us is inconclusive.
    const answer = classifyRcpt(await session.command(`RCPT TO:<${random}>`));
    return answer === 'accepted' ? true : answer === 'rejected' ? false : null;
  } catch {
    return null;
  }
}

function refusal(host: string, reply: SmtpReply, atMailFrom = false): ProbeOutcome {
  const kind = classifyRefusal(reply, atMailFrom);
  if (kind === 'transient') return { kind: 'transient', host, reply };
  return { kind: 'refused', host, reply, reason: kind === 'blocked' ? 'blocked' : 'smtp_error' };
}

async function converse(
  ctx: ProbeContext,
  session: SmtpSession,
  host: string,
  req: ProbeRequest,
): Promise<ProbeOutcome> {
  const { heloName } = ctx.config;
  let hello = await session.command(`EHLO ${heloName}`);
  if (hello.code !== 250) hello = await session.command(`HELO ${heloName}`);
  if (hello.code !== 250) return refusal(host, hello);
  return transaction(ctx, session, host, req);
}

/** MAIL FROM, RCPT TO and the catch-all probe: one mail transaction after EHLO or RSET. */
async function transaction(
  ctx: ProbeContext,
  session: SmtpSession,
  host: string,
  req: ProbeRequest,
): Promise<ProbeOutcome> {
  const { mailFrom } = ctx.config;
  const mail = await session.command(mailFromLine(mailFrom));
  if (mail.code !== 250) return refusal(host, mail, true);
  const reply = await session.command(`RCPT TO:<${req.email}>`);
  const answer = classifyRcpt(reply);
  if (answer === 'transient') return { kind: 'transient', host, reply };
  let catchAll: boolean | null = null;
  const pointless = req.provider?.skipCatchAllProbe || req.provider?.acceptsAll;
  if (req.catchAllMode && answer === 'accepted' && reply.code < 300 && !pointless) {
    catchAll = await memo(req.scope.catchAll, req.domain, () => isCatchAll(ctx, session, req.domain));
  }
  return { kind: 'answered', host, reply, catchAll };
}

type Attempt =
  | ProbeOutcome
  /** Try the next address or host: no connection, no greeting, a non-220 greeting, or dropped. */
  | { kind: 'next'; timedOut: boolean; greeting: SmtpReply | null; dropped: boolean };

/** A conversation's answer and, when it may serve further rows, its session still open. */
interface Conversation {
  result: Attempt;
  open: SmtpSession | null;
}

async function attempt(
  ctx: ProbeContext,
  host: string,
  address: string,
  req: ProbeRequest,
): Promise<Conversation> {
  const { smtpPort, smtpTimeoutMs } = ctx.config;
  let session: SmtpSession;
  try {
    session = await (ctx.open
      ? ctx.open(address)
      : openSmtpSession(address, smtpPort, smtpTimeoutMs, ctx.connector, req.signal));
  } catch (error) {
    const kind = error instanceof SmtpFailure ? error.kind : 'connect';
    ctx.logger.debug({ host, address, error: String(error) }, 'smtp connection failed');
    const result: Attempt = {
      kind: 'next',
      timedOut: kind === 'timeout',
      greeting: null,
      dropped: kind === 'closed',
    };
    return { result, open: null };
  }
  let keep = false;
  try {
    if (session.greeting.code !== 220) {
      ctx.logger.debug({ host, address, greeting: session.greeting }, 'greeting refused, next MX');
      return {
        result: { kind: 'next', timedOut: false, greeting: session.greeting, dropped: false },
        open: null,
      };
    }
    const result = await converse(ctx, session, host, req);
    // Kept open only for rows already waiting here; otherwise QUIT comes before the answer.
    keep = result.kind === 'answered' && (ctx.share?.waiting(host, address) ?? false);
    return { result, open: keep ? session : null };
  } catch (error) {
    const kind = error instanceof SmtpFailure ? error.kind : 'protocol';
    ctx.logger.debug({ host, address, error: String(error) }, 'smtp conversation failed');
    if (kind === 'closed')
      return { result: { kind: 'next', timedOut: false, greeting: null, dropped: true }, open: null };
    const reason = kind === 'timeout' ? 'smtp_timeout' : 'smtp_error';
    return { result: { kind: 'failed', host, reason, connected: true }, open: null };
  } finally {
    if (!keep) await session.quit();
  }
}

/**
 * Serves rows waiting at this host and address on an open session (./session-share.ts): RSET,
 * then their mail transaction. Only a definite answer is kept; on anything else the row goes
 * back to probing on its own and the session is not used again. QUITs at the end.
 */
async function serveWaiting(
  ctx: ProbeContext,
  share: SessionShare,
  session: SmtpSession,
  host: string,
  address: string,
): Promise<void> {
  try {
    let waiter = share.take(host, address);
    for (let served = 2; waiter; served++) {
      let outcome: ProbeOutcome | null = null;
      // The row's own deadline covers its turn on the shared connection: a row past it is not
      // asked for, and one whose deadline passes mid-transaction closes the connection.
      const signal = waiter.req.signal;
      const cut = () => void session.quit();
      if (signal?.aborted) {
        waiter.resolve(null);
        waiter = share.take(host, address);
        continue;
      }
      signal?.addEventListener('abort', cut, { once: true });
      try {
        if ((await session.command('RSET')).code === 250)
          outcome = await transaction(ctx, session, host, waiter.req);
      } catch (error) {
        ctx.logger.debug({ host, address, error: String(error) }, 'shared smtp connection failed');
      } finally {
        signal?.removeEventListener('abort', cut);
      }
      const answered = outcome?.kind === 'answered';
      const next = answered && served < share.perConnection ? share.take(host, address) : null;
      // The last row served hears its answer after QUIT, as a row with a connection of its own.
      if (!next) await session.quit();
      waiter.resolve(answered ? outcome : null);
      waiter = next;
    }
  } finally {
    await session.quit();
  }
}

/** A dead destination's answer: next host, as a timeout would have said. */
const DEAD: Attempt = { kind: 'next', timedOut: true, greeting: null, dropped: false };

/** What a conversation tells about its destination's capacity (./destinations.ts). */
function feedbackOf(result: Attempt): Feedback {
  // Timed out after the greeting: alive but slow (only connect and greeting timeouts make a
  // destination dead, as in Postfix); fewer at once.
  if (result.kind === 'failed') return result.reason === 'smtp_timeout' ? 'throttled' : 'ok';
  if (result.kind !== 'next') return 'ok';
  if (result.timedOut) return 'timeout';
  // Refused at connect, or a 4xx greeting (421: too many connections): fewer at once.
  if (result.greeting === null ? !result.dropped : result.greeting.code < 500) return 'throttled';
  return 'ok';
}

/**
 * Hosts in priority order, those of equal priority in a random order each time, so that traffic
 * is spread between them (RFC 5321 §5.1).
 */
export function spreadEqualPriorities(hosts: readonly MailHost[]): MailHost[] {
  const out = [...hosts].sort((a, b) => a.priority - b.priority);
  for (let start = 0; start < out.length; ) {
    let end = start + 1;
    while (end < out.length && out[end]?.priority === out[start]?.priority) end++;
    for (let i = end - 1; i > start; i--) {
      const j = start + Math.floor(Math.random() * (i - start + 1));
      [out[i], out[j]] = [out[j] as MailHost, out[i] as MailHost];
    }
    start = end;
  }
  return out;
}

/**
 * One conversation with `address` under the address's slot; with sharing, a conversation already
 * open there may serve this row first (the row then leaves the slot queue: it opens nothing),
 * and this row's own conversation, once answered, serves the rows waiting after it while it
 * holds the slot.
 */
async function converseAt(
  ctx: ProbeContext,
  name: string,
  address: string,
  req: ProbeRequest,
): Promise<Attempt> {
  const { share } = ctx;
  const ticket = share?.wait(name, address, req);
  const signals = [ticket?.taken, req.signal].filter((s): s is AbortSignal => s !== undefined);
  const cancel = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  let answer: (result: Attempt | null) => void = () => {};
  const own = new Promise<Attempt | null>((resolve) => {
    answer = resolve;
  });
  const slot = ctx.limits.run(
    address,
    async () => {
      // Taken by another row's connection as this slot came: this slot is not needed.
      if (ticket && !ticket.leave()) return answer(null);
      // Found dead while this row queued: skip it as the probe would have.
      if (ctx.destinations?.isDead(address)) return answer(DEAD);
      ctx.logger.debug({ event: 'smtp-open', host: name, address }, 'smtp conversation');
      try {
        const { result, open } = await attempt(ctx, name, address, req);
        ctx.destinations?.report(address, feedbackOf(result));
        answer(result);
        if (share && open) await serveWaiting(ctx, share, open, name, address);
      } finally {
        ctx.logger.debug({ event: 'smtp-close', host: name, address }, 'smtp conversation ended');
      }
    },
    cancel,
    req.domain,
    req.urgent,
  );
  const failed = slot.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => {
      // Taken by an open connection before its slot came: the answer comes on ticket.served.
      if (ticket?.taken.aborted) return new Promise<never>(() => {});
      // No slot (the shared slot table failed): leave the queue, or a later connection would
      // still ask for this row and throw its answer away.
      ticket?.leave();
      return Promise.reject(error);
    },
  );
  if (!ticket) return (await Promise.race([own, failed])) ?? fresh(ctx, name, address, req);
  const first = await Promise.race([own, ticket.served, failed]);
  if (first === null) {
    // Own slot skipped (the row was taken) or the shared connection could not answer it.
    const served = await ticket.served;
    return served ?? fresh(ctx, name, address, req);
  }
  return first;
}

/** A conversation of this row's own, without sharing (after a shared connection could not answer). */
function fresh(ctx: ProbeContext, name: string, address: string, req: ProbeRequest): Promise<Attempt> {
  return converseAt({ ...ctx, share: undefined }, name, address, req);
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
  let dropped = false;
  let reconnected = false;
  let refused: { host: string; reply: SmtpReply } | null = null;
  const run = (name: string, address: string) => converseAt(ctx, name, address, req);
  for (const { name } of spreadEqualPriorities(req.hosts)) {
    for (const address of (await addressesOf(ctx, req, name)).slice(0, ADDRESSES_PER_HOST)) {
      if (req.signal?.aborted)
        return { kind: 'failed', host: name, reason: 'smtp_timeout', connected: tried };
      if (ctx.destinations?.isDead(address)) {
        // Remembered as a tarpit: no connection, no wait (./destinations.ts).
        timedOut = true;
        continue;
      }
      tried = true;
      let result = await run(name, address);
      // One reconnect when a server drops the connection mid-dialogue, then the next host.
      if (result.kind === 'next' && result.dropped && !reconnected) {
        reconnected = true;
        result = await run(name, address);
      }
      if (result.kind !== 'next') return result;
      timedOut ||= result.timedOut;
      dropped ||= result.dropped;
      if (result.greeting) refused = { host: name, reply: result.greeting };
    }
  }
  // Every host failed; the last refusing greeting (421, 554, a blocklist text) says why.
  if (refused) {
    const outcome = refusal(refused.host, refused.reply);
    return outcome.kind === 'transient' ? { ...outcome, atGreeting: true } : outcome;
  }
  return {
    kind: 'failed',
    host: req.hosts[0]?.name ?? null,
    reason: timedOut ? 'smtp_timeout' : dropped ? 'smtp_error' : 'smtp_unreachable',
    connected: dropped ? true : tried ? false : null,
  };
}
