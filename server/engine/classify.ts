/**
 * SMTP replies to verdicts (docs/design.md §3, "Classification" and "Classification, as real
 * mail servers answer"). Pure functions, unit-tested with the reply texts real servers send.
 */
import type { Reason, Verdict } from '@verimark/contract';
import type { Provider } from './provider';
import type { SmtpReply } from './smtp-session';

type ReplyClass =
  /** 2xx, or Gmail's 4.2.1 "receiving mail at a rate" (the mailbox exists). */
  | 'accepted'
  | 'rejected'
  | 'mailbox_full'
  /** 4xx: try again later (greylisting, a busy server, too many recipients). */
  | 'transient'
  /** A refusal about us (blocklist, policy, relay, rDNS, HELO, reputation), not the mailbox. */
  | 'blocked'
  | 'error';

/**
 * Texts of refusals about the sending host or sender, not the recipient. "Service (currently)
 * unavailable" is Postfix's wording for a client it refuses: postscreen's `550 5.3.2 Service
 * currently unavailable` to every RCPT and `521 5.3.2` greeting, reject_rbl_client's text.
 */
const ABOUT_US =
  /black ?list|block ?list|blocked|spamhaus|spamcop|barracuda|sorbs|\bdnsbl\b|\brbl\b|listed (?:at|in|on)|relay|reverse dns|\brdns\b|\bptr\b|\bhelo\b|\behlo\b|policy|reputation|unsolicited|\bspam\b|banned|dynamic ip|residential|client host|sender verify|verification failed|sender address rejected|not authori[sz]ed|too many connections|rate limit|connections will not be accepted|service (?:is )?(?:currently )?unavailable/i;
/** Texts that say the mailbox does not exist. */
const NO_MAILBOX =
  /unknown user|user unknown|no such (?:user|mailbox|recipient|address)|unrouteable address|unroutable address|mailbox (?:is )?unavailable|does not exist|doesn't exist|not exist|mailbox not found|user not found|recipient not found|unknown recipient|invalid recipient|invalid mailbox|no mailbox|address rejected|(?:doesn't|does not) have an? \S+ account|account (?:is )?disabled|mailbox (?:is )?disabled|inactive/i;
const TOO_MANY_RECIPIENTS = /too many recipients/i;
const GMAIL_RATE = /receiving mail at a rate/i;

/** 4xx answers: try again later. Gmail's 4.2.1 rate answer is not one (the mailbox exists). */
export function isTransient(reply: SmtpReply): boolean {
  return reply.code >= 400 && reply.code < 500 && !isMailboxRate(reply);
}

function isMailboxRate(reply: SmtpReply): boolean {
  return (
    (reply.code === 450 || reply.code === 452) && reply.enhanced === '4.2.1' && GMAIL_RATE.test(reply.text)
  );
}

/** Is a 4xx/5xx answer about us (the prober) rather than the address? Enhanced code first, then text. */
function isAboutUs(reply: SmtpReply): boolean {
  const { enhanced, text } = reply;
  if (enhanced?.startsWith('5.7.') || enhanced === '5.1.7' || enhanced === '5.1.8') return true;
  return ABOUT_US.test(text) && !/greylist/i.test(text);
}

/** 5xx with an enhanced code that decides on its own; null when only the text can tell. */
function byEnhancedCode(reply: SmtpReply): ReplyClass | null {
  const { enhanced, text } = reply;
  if (!enhanced?.startsWith('5.')) return null;
  if (enhanced.startsWith('5.7.') || enhanced === '5.1.7' || enhanced === '5.1.8') return 'blocked';
  if (enhanced.startsWith('5.1.') || enhanced === '5.2.1') return 'rejected';
  if (enhanced === '5.2.2') return 'mailbox_full';
  // Microsoft 365's directory-based edge blocking: the tenant has no such recipient.
  if (enhanced === '5.4.1' && /recipient address rejected/i.test(text)) return 'rejected';
  return null;
}

/** The answer to RCPT TO. */
export function classifyRcpt(reply: SmtpReply): ReplyClass {
  const { code, enhanced } = reply;
  if (code >= 200 && code < 300) return 'accepted';
  if (isMailboxRate(reply)) return 'accepted';
  if (code >= 400 && code < 500) {
    if (TOO_MANY_RECIPIENTS.test(reply.text) || enhanced === '4.5.3') return 'transient';
    if (code === 452 || enhanced === '4.2.2') return 'mailbox_full';
    return 'transient';
  }
  if (code < 500 || code >= 600) return 'error';
  const decided = byEnhancedCode(reply);
  if (decided) return decided;
  if (code === 552) return 'mailbox_full';
  // No enhanced code (Exim's default) or an unspecific one: only the text can tell, and a
  // refusal about us wins over mailbox words in the same reply ("Verification failed …
  // Unrouteable address … Sender verify failed").
  if (isAboutUs(reply)) return 'blocked';
  if (NO_MAILBOX.test(reply.text)) return 'rejected';
  return 'error';
}

/**
 * A refusal before RCPT (greeting, EHLO/HELO, MAIL FROM): 4xx is transient; a 5xx about us
 * (any at MAIL FROM, which names our sender) is blocked; anything else is an error.
 */
export function classifyRefusal(reply: SmtpReply, atMailFrom = false): 'transient' | 'blocked' | 'error' {
  if (reply.code >= 400 && reply.code < 500) return 'transient';
  if (reply.code === 554 || atMailFrom || isAboutUs(reply)) return 'blocked';
  return 'error';
}

interface Classified {
  status: Verdict;
  reason: Reason;
}

/** Why a transient answer that stayed transient after the retry: greylisting, or about us. */
export function transientVerdict(reply: SmtpReply): Classified {
  return { status: 'unknown', reason: isAboutUs(reply) ? 'blocked' : 'greylisted' };
}

/**
 * Verdict for a RCPT answer; `catchAll` is the random-address probe's result (null: not probed
 * or inconclusive); `provider` from the MX host name.
 */
export function verdictForRcpt(
  reply: SmtpReply,
  catchAll: boolean | null,
  provider: Provider | null = null,
): Classified {
  switch (classifyRcpt(reply)) {
    case 'accepted':
      if (provider?.acceptsAll && reply.code < 300)
        return { status: 'unknown', reason: 'accept_all_provider' };
      return catchAll === true
        ? { status: 'risky', reason: 'catch_all' }
        : { status: 'deliverable', reason: 'accepted_email' };
    case 'rejected':
      return { status: 'undeliverable', reason: 'rejected_email' };
    case 'mailbox_full':
      return { status: 'risky', reason: 'mailbox_full' };
    case 'transient':
      return transientVerdict(reply);
    case 'blocked':
      return { status: 'unknown', reason: 'blocked' };
    default:
      return { status: 'unknown', reason: 'smtp_error' };
  }
}
