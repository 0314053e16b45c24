/**
 * classifyRcpt and verdictForRcpt: SMTP answers to verdicts and reasons, and which answers are
 * worth a retry.
 */
import { describe, expect, it } from 'vitest';
import { classifyRcpt, isTransient, verdictForRcpt } from './classify';
import { ReplyParser, type SmtpReply } from './smtp-session';

/** Parses a raw reply line the way the SMTP client does. */
const reply = (line: string): SmtpReply => {
  const [parsed] = new ReplyParser().push(`${line}\r\n`);
  if (!parsed) throw new Error('no reply');
  return parsed;
};

describe('classifyRcpt', () => {
  it.each([
    ['250 2.1.5 Ok', 'accepted'],
    ['251 User not local; will forward', 'accepted'],
    ['550 5.1.1 User unknown', 'rejected'],
    ['550 No such user here', 'rejected'],
    ['551 5.1.6 User has moved', 'rejected'],
    ['553 5.1.3 Bad recipient address syntax', 'rejected'],
    ['550 5.7.1 Client host blocked', 'blocked'],
    ['553 5.7.1 Sender not authorized', 'blocked'],
    ['552 5.2.2 Mailbox full', 'mailbox_full'],
    ['452 4.2.2 Over quota', 'mailbox_full'],
    ['550 5.2.2 Mailbox full', 'mailbox_full'],
    ['421 4.7.0 Try again later', 'transient'],
    ['450 4.2.0 Mailbox busy', 'transient'],
    ['451 4.7.1 Greylisted', 'transient'],
    ['554 5.7.1 Rejected', 'blocked'],
    ['554 Transaction failed', 'error'],
    ['503 5.5.1 Bad sequence', 'error'],
  ] as const)('%s → %s', (line, expected) => {
    expect(classifyRcpt(reply(line))).toBe(expected);
  });

  it('knows which answers are worth one retry', () => {
    expect(isTransient(reply('451 later'))).toBe(true);
    expect(isTransient(reply('452 4.5.3 Error: too many recipients'))).toBe(true);
    expect(
      isTransient(reply('450 4.2.1 The user you are trying to contact is receiving mail at a rate')),
    ).toBe(false);
    expect(isTransient(reply('550 no'))).toBe(false);
  });
});

describe('verdictForRcpt', () => {
  it('maps accepted addresses by the catch-all probe', () => {
    expect(verdictForRcpt(reply('250 ok'), null)).toEqual({
      status: 'deliverable',
      reason: 'accepted_email',
    });
    expect(verdictForRcpt(reply('250 ok'), false)).toEqual({
      status: 'deliverable',
      reason: 'accepted_email',
    });
    expect(verdictForRcpt(reply('250 ok'), true)).toEqual({ status: 'risky', reason: 'catch_all' });
  });

  it('maps the other answers (the catch-all result does not matter)', () => {
    expect(verdictForRcpt(reply('550 5.1.1 unknown'), true)).toEqual({
      status: 'undeliverable',
      reason: 'rejected_email',
    });
    expect(verdictForRcpt(reply('552 full'), null)).toEqual({ status: 'risky', reason: 'mailbox_full' });
    expect(verdictForRcpt(reply('451 later'), null)).toEqual({ status: 'unknown', reason: 'greylisted' });
    expect(verdictForRcpt(reply('550 5.7.1 blocked'), null)).toEqual({
      status: 'unknown',
      reason: 'blocked',
    });
    expect(verdictForRcpt(reply('554 Transaction failed'), null)).toEqual({
      status: 'unknown',
      reason: 'smtp_error',
    });
  });
});
