// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { ComposeRecipient } from './compose';
import { decide } from './decide';
import { FakeVerdicts } from './testing/fake-verdicts';

const el = document.createElement('div');
const chip = (raw: string): ComposeRecipient => ({ raw, el, typed: false, field: 'to' });
const typed = (raw: string): ComposeRecipient => ({ raw, el, typed: true, field: 'to' });
const off = { warnRisky: false };

describe('the guard’s decision', () => {
  it('lets the send through when every recipient is deliverable, unknown or could not be verified', () => {
    const book = new FakeVerdicts();
    book.set('a@x.test', 'deliverable');
    book.set('b@x.test', 'unknown');
    book.set('c@x.test', 'error');
    expect(decide([chip('a@x.test'), chip('B@x.test'), chip('c@x.test')], book, off)).toEqual({
      action: 'pass',
    });
    expect(decide([], book, off)).toEqual({ action: 'pass' });
  });

  it('warns for undeliverable and invalid chips, once per address, with reason and suggestion', () => {
    const book = new FakeVerdicts();
    book.set('a@gmial.com', 'undeliverable', { reason: 'invalid_domain', suggestion: 'a@gmail.com' });
    book.set('bad@', 'invalid');
    const decision = decide([chip('a@gmial.com'), chip('bad@'), chip('a@gmial.com')], book, off);
    expect(decision).toMatchObject({
      action: 'warn',
      flagged: [
        {
          email: 'a@gmial.com',
          status: 'undeliverable',
          reason: 'invalid_domain',
          suggestion: 'a@gmail.com',
        },
        { email: 'bad@', status: 'invalid', suggestion: null },
      ],
    });
  });

  it('warns for risky only when the option says so', () => {
    const book = new FakeVerdicts();
    book.set('all@catch-all.test', 'risky', { reason: 'catch_all' });
    expect(decide([chip('all@catch-all.test')], book, off).action).toBe('pass');
    expect(decide([chip('all@catch-all.test')], book, { warnRisky: true }).action).toBe('warn');
  });

  it('leaves half-typed text to the webmail: typed text that is not an address is not flagged', () => {
    const book = new FakeVerdicts();
    book.set('bob', 'invalid');
    expect(decide([typed('bob')], book, off)).toEqual({ action: 'pass' });
  });

  it('waits for pending and unverified recipients, and stops waiting (fail open) once the wait is over', () => {
    const book = new FakeVerdicts();
    book.set('a@x.test', 'deliverable');
    book.set('u@x.test', 'unverified');
    const recipients = [chip('a@x.test'), chip('p@x.test'), chip('u@x.test')];
    expect(decide(recipients, book, off)).toEqual({ action: 'wait', waiting: ['p@x.test', 'u@x.test'] });
    expect(decide(recipients, book, off, true)).toEqual({ action: 'pass' });
  });

  it('warns at once for a known bad recipient even while others are still checked', () => {
    const book = new FakeVerdicts();
    book.set('no@x.test', 'undeliverable');
    expect(decide([chip('p@x.test'), chip('no@x.test')], book, off).action).toBe('warn');
  });
});
