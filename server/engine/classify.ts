/**
 * SMTP replies to verdicts (DESIGN.md §3). Pure functions, unit-tested on their own.
 */
import type { Reason, Verdict } from '../../lib/api/contract';
import type { SmtpReply } from './smtp-session';

export type ReplyClass = 'accepted' | 'rejected' | 'mailbox_full' | 'transient' | 'error';

/** 421/450/451: try again later (greylisting, rate limits, a busy server). */
export function isTransient(reply: SmtpReply): boolean {
  return reply.code === 421 || reply.code === 450 || reply.code === 451;
}

/**
 * The answer to RCPT TO. 550/551/553 mean "no such mailbox" only when the enhanced code is
 * absent or 5.1.x; 550 5.7.1 is a policy refusal (e.g. the prober's IP is blocked) that says
 * nothing about the address. 552, 452 and X.2.2 mean the mailbox is full.
 */
export function classifyRcpt(reply: SmtpReply): ReplyClass {
  const { code, enhanced } = reply;
  if (code >= 200 && code < 300) return 'accepted';
  if (code === 552 || code === 452 || enhanced?.endsWith('.2.2')) return 'mailbox_full';
  if (isTransient(reply)) return 'transient';
  if (code === 550 || code === 551 || code === 553) {
    return enhanced === null || enhanced.startsWith('5.1.') ? 'rejected' : 'error';
  }
  return 'error';
}

export interface Classified {
  status: Verdict;
  reason: Reason;
}

/** Verdict for a RCPT answer; `catchAll` is the random-address probe's result (null: not probed). */
export function verdictForRcpt(reply: SmtpReply, catchAll: boolean | null): Classified {
  switch (classifyRcpt(reply)) {
    case 'accepted':
      return catchAll === true
        ? { status: 'risky', reason: 'catch_all' }
        : { status: 'deliverable', reason: 'accepted_email' };
    case 'rejected':
      return { status: 'undeliverable', reason: 'rejected_email' };
    case 'mailbox_full':
      return { status: 'risky', reason: 'mailbox_full' };
    case 'transient':
      return { status: 'unknown', reason: 'greylisted' };
    default:
      return { status: 'unknown', reason: 'smtp_error' };
  }
}
