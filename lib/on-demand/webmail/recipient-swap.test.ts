// @vitest-environment happy-dom
/**
 * Replace on a compose recipient, on a Gmail-like field whose own script makes a chip from the
 * typing box at a comma and removes one with its remove control (as test/e2e's guard-gmail.html).
 * Real Chromium runs the same in test/e2e/content-recipients.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { findRecipient, recipientFieldOf, swapRecipient } from './recipient-swap';

function chip(address: string): HTMLElement {
  const outer = document.createElement('div');
  const el = document.createElement('div');
  el.setAttribute('role', 'option');
  el.setAttribute('data-hovercard-id', address);
  el.textContent = address;
  const remove = document.createElement('div');
  // Gmail names the chip's remove control by aria-describedby; its label is the UI language's.
  remove.id = `${address.replace(/\W/g, '-')}-db`;
  remove.setAttribute('aria-label', 'Zum Entfernen dieses Chips die Entf-Taste drücken');
  el.setAttribute('aria-describedby', remove.id);
  remove.addEventListener('click', () => outer.remove());
  el.append(remove);
  outer.append(el);
  return outer;
}

function compose(...addresses: string[]): HTMLElement {
  document.body.replaceChildren();
  const field = document.createElement('div');
  field.setAttribute('name', 'to');
  const list = document.createElement('div');
  list.setAttribute('role', 'listbox');
  const input = document.createElement('input');
  input.addEventListener('input', () => {
    if (!input.value.includes(',')) return;
    list.append(chip(input.value.replace(',', '').trim()));
    input.value = '';
  });
  for (const address of addresses) list.append(chip(address));
  field.append(list, input);
  document.body.append(field);
  return field;
}

const addresses = (field: Element) =>
  [...field.querySelectorAll('[data-hovercard-id]')].map((c) => c.getAttribute('data-hovercard-id'));

describe('swapRecipient', () => {
  beforeEach(() => {
    document.body.replaceChildren();
  });

  it('removes the chip with its own control and types the new address for the page to chip', () => {
    const field = compose('bob@example.com', 'alice@gmial.com');
    const old = findRecipient(field, 'ALICE@gmial.com');
    expect(old && recipientFieldOf(old)).toBe(field);
    const done = old && swapRecipient(old, 'alice@gmail.com');
    expect(done).toEqual({ field, before: 'alice@gmial.com', by: 'alice@gmail.com' });
    expect(addresses(field)).toEqual(['bob@example.com', 'alice@gmail.com']);
    // Undo is the same swap back, on the chip the page made.
    const now = findRecipient(field, 'alice@gmail.com');
    expect(now && swapRecipient(now, 'alice@gmial.com')?.by).toBe('alice@gmial.com');
    expect(addresses(field)).toEqual(['bob@example.com', 'alice@gmial.com']);
  });

  it('does nothing for a recipient outside a compose field (a sender in a message)', () => {
    document.body.replaceChildren();
    const sender = document.createElement('span');
    sender.setAttribute('email', 'bob@example.com');
    document.body.append(sender);
    expect(recipientFieldOf(sender)).toBeNull();
    expect(swapRecipient(sender, 'bob@example.org')).toBeNull();
    expect(sender.isConnected).toBe(true);
  });
});
