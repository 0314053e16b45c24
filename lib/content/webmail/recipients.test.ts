// @vitest-environment happy-dom
/**
 * Recipient recognition on real webmail markup: the Gmail captures and the Outlook page written
 * from its described markup (test/e2e/fixtures/content, sources in SOURCES.md there).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { TARGET_SELECTOR } from '@/lib/content/extract/targets';
import { findTextTargets } from '@/lib/content/extract/text';
import { fieldOf, isRecipientInput, recipientOf, recipientsIn } from './recipients';

function load(name: string): void {
  const path = join(__dirname, '../../../test/e2e/fixtures/content', name);
  // Test fixture only: a stored capture parsed here, never page data in the extension.
  document.documentElement.innerHTML = readFileSync(path, 'utf8');
}

function textTargets(): string[] {
  const found: string[] = [];
  findTextTargets(document, TARGET_SELECTOR, (_el, target) => found.push(...target.emails));
  return found;
}

describe('webmail recipients', () => {
  beforeEach(() => {
    document.documentElement.innerHTML = '<head></head><body></body>';
  });

  it('reads the current Gmail chip (div[role=option][data-hovercard-id]) and not its inner text again', () => {
    load('gmail-chip.html');
    const all = recipientsIn(document);
    expect(all.map(({ kind, emails }) => ({ kind, emails }))).toEqual([
      { kind: 'chip', emails: ['heeloo@gmail.com'] },
    ]);
    // The address is also written inside the chip (div.akl): it belongs to the chip's mark.
    expect(textTargets()).toEqual([]);
  });

  it('knows the To, Cc and Bcc boxes of the Gmail compose dialog; the message body is never read', () => {
    load('gmail-compose.html');
    const boxes = [...document.querySelectorAll('textarea')].filter(isRecipientInput);
    expect(boxes.map((box) => fieldOf(box))).toEqual(['to', 'cc', 'bcc']);
    const subject = document.querySelector('input[name="subjectbox"]');
    expect(subject && isRecipientInput(subject)).toBe(false);
    const body = document.querySelector('[contenteditable="true"]');
    if (!body) throw new Error('no body');
    body.textContent = 'Please write to someone@example.com';
    expect(textTargets()).toEqual([]);
  });

  it('reads Outlook recipient pills with their field; names inside them are not read as addresses', () => {
    load('outlook-compose.html');
    expect(recipientsIn(document).map(({ emails, field }) => ({ email: emails[0], field }))).toEqual([
      { email: 'info@deliverable.test', field: 'to' },
      { email: 'lead4@rejecting.test', field: 'to' },
      { email: 'support@deliverable.test', field: 'cc' },
    ]);
    const name = document.querySelector('#owa-to-1 span');
    expect(name && recipientOf(name)).toBeNull();
    expect(textTargets()).toEqual([]);
  });
});
