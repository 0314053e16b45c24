// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { Flagged } from '@/lib/content/send-guard/decide';
import { load } from '@/lib/content/send-guard/testing/fixtures';
import { recipientsIn } from '@/lib/content/webmail/recipients';
import { replaceRecipient } from './replace';

const flagged = (el: Element, email: string): Flagged => ({
  email,
  el,
  typed: false,
  status: 'undeliverable',
  reason: 'rejected_email',
  suggestion: 'ann@example.org',
});

describe('Replace in a compose window in another language', () => {
  it('presses a Gmail chip’s remove control found by aria-describedby, not by its (German) label', () => {
    load(
      document,
      `<div name="to"><div role="listbox"><div class="agh"><div role="option" data-hovercard-id="ann@exmaple.org" aria-describedby=":q-db">ann@exmaple.org<div id=":q-db" aria-label="Zum Entfernen dieses Chips die Entf-Taste drücken">×</div></div></div></div><input peoplekit-id="x" aria-label="Empfänger in „An“"></div>`,
    );
    const chip = document.querySelector('[data-hovercard-id]') as Element;
    const pressed: string[] = [];
    // Gmail removes the chip's whole wrapper, and with it its own record of the recipient.
    document.getElementById(':q-db')?.addEventListener('click', () => {
      pressed.push('remove');
      document.querySelector('.agh')?.remove();
    });
    expect(replaceRecipient(flagged(chip, 'ann@exmaple.org'))).toBe(true);
    expect(pressed).toEqual(['remove']);
    expect(document.querySelector('.agh')).toBeNull();
    expect((document.querySelector('input') as HTMLInputElement).value).toBe('ann@example.org,');
  });
});

describe('Replace in an Outlook well', () => {
  it('takes the pill and its mark out, types the suggestion, and the mark is no recipient meanwhile', () => {
    load(
      document,
      `<div role="group" id="x_TO"><div id="well" contenteditable="true" aria-label="À"><span class="_EType_RECIPIENT_ENTITY" contenteditable="false" aria-label="ann@exmaple.org">Ann</span><verimark-badge aria-label="Verimark: Non livrable, ann@exmaple.org."></verimark-badge></div></div>`,
    );
    expect(recipientsIn(document).map((r) => r.emails[0])).toEqual(['ann@exmaple.org']);
    const pill = document.querySelector('._EType_RECIPIENT_ENTITY') as Element;
    expect(replaceRecipient(flagged(pill, 'ann@exmaple.org'))).toBe(true);
    expect(document.querySelector('verimark-badge')).toBeNull();
    expect(document.getElementById('well')?.textContent).toBe('ann@example.org; ');
  });
});
