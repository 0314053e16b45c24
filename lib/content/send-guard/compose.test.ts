// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { composeOf, composeRecipients, isSendButton, isSendLabel, sendButtonIn } from './compose';
import {
  GMAIL_CHIP_2021,
  GMAIL_COMPOSE_2020,
  GMAIL_IN,
  GMAIL_LIKE,
  LANGUAGES,
  load,
  OUTLOOK_IN,
  OUTLOOK_LIKE,
  OUTLOOK_WRITTEN,
} from './testing/fixtures';

const $ = (selector: string) => {
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no ${selector}`);
  return el;
};
const raws = (compose: Element) => composeRecipients(compose).map((r) => [r.raw, r.field, r.typed]);

describe('send buttons', () => {
  it('knows a Send button by its Ctrl/Cmd+Enter hint in any language, not other send actions or hints', () => {
    for (const label of [
      'Send ‪(Ctrl-Enter)‬',
      'Send (Ctrl+Enter)',
      'Senden ‪(Strg-Eingabetaste)‬',
      'Senden (Strg+Eingabe)',
      'Envoyer ‪(Ctrl-Entrée)‬',
      'Enviar (Ctrl+Intro)',
      'Send ‪(⌘Enter)‬',
    ])
      expect(isSendLabel(label), label).toBe(true);
    for (const label of [
      'Send',
      'Send later',
      'More send options',
      'Weitere Sendeoptionen',
      'Bold (Ctrl-B)',
      'Fett (Strg+B)',
      'Numbered list (Ctrl-Shift-7)',
      'Vollbild (Umschalttaste für Pop-out)',
      null,
    ])
      expect(isSendLabel(label), String(label)).toBe(false);
  });

  it('knows Send by stable attributes: Gmail’s class, Outlook’s test id, aria-keyshortcuts', () => {
    load(
      document,
      `<div role="button" class="T-I aoO" id="g">Senden</div><div role="button" class="T-I" id="other">Mehr</div>
       <button data-testid="ComposeSendButton" id="o">Envoyer</button><button aria-keyshortcuts="Control+Enter" id="k">Enviar</button>
       <span class="aoO" id="not-a-button">Senden</span>`,
    );
    for (const id of ['g', 'o', 'k']) expect(isSendButton($(`#${id}`)), id).toBe(true);
    for (const id of ['other', 'not-a-button']) expect(isSendButton($(`#${id}`)), id).toBe(false);
  });

  it('finds the Send button and its compose on the Gmail-like and Outlook-like pages', () => {
    load(document, GMAIL_LIKE());
    const gmailSend = $('#send');
    expect(isSendButton(gmailSend)).toBe(true);
    expect(composeOf(gmailSend)).toBe($('[role=dialog]'));
    expect(sendButtonIn($('[role=dialog]'))).toBe(gmailSend);
    load(document, OUTLOOK_LIKE());
    expect(isSendButton($('#send'))).toBe(true);
    expect(composeOf($('#send'))).toBe($('#app'));
  });
});

describe('compose windows in German, French and Spanish', () => {
  for (const lang of LANGUAGES) {
    it(`finds Send, the compose and its recipients in Gmail (${lang})`, () => {
      load(document, GMAIL_IN(lang));
      const send = $('#send');
      expect(sendButtonIn($('[role=dialog]'))).toBe(send);
      expect(composeOf(send)).toBe($('[role=dialog]'));
      ($('#to-input') as HTMLInputElement).value = 'zed@example.org';
      expect(raws($('[role=dialog]'))).toEqual([['zed@example.org', 'to', true]]);
    });

    it(`finds Send, the compose and typed text in Outlook’s wells (${lang})`, () => {
      load(document, OUTLOOK_IN(lang));
      const send = $('#send');
      expect(sendButtonIn($('#app'))).toBe(send);
      expect(composeOf(send)).toBe($('#app'));
      $('#well-to').innerHTML =
        '<span class="_EType_RECIPIENT_ENTITY" contenteditable="false" aria-label="ann@example.org"><span>Ann</span></span> zed@example.org';
      $('#well-cc').textContent = 'bo@example.org';
      expect(raws($('#app'))).toEqual([
        ['ann@example.org', 'to', false],
        ['zed@example.org', 'to', true],
        ['bo@example.org', 'cc', true],
      ]);
    });
  }
});

describe('recipients of a compose window', () => {
  it('reads the real Gmail chip (2021+ capture) inside a To field, and typed text not chipped yet', () => {
    load(
      document,
      `<div role="dialog"><div class="anm" name="to"><div role="listbox">${GMAIL_CHIP_2021()}</div><input class="agP aFw" peoplekit-id="x" aria-label="To recipients"></div></div>`,
    );
    const compose = $('[role=dialog]');
    ($('input[peoplekit-id]') as HTMLInputElement).value = 'Ann <ann@example.org>, half-typed';
    expect(raws(compose)).toEqual([
      ['heeloo@gmail.com', 'to', false],
      ['ann@example.org', 'to', true],
    ]);
  });

  it('reads the old Gmail compose (2020 capture): addresses typed in textarea[name=to|cc|bcc]', () => {
    load(document, GMAIL_COMPOSE_2020());
    const compose = $('div.nH.Hd[role=dialog]');
    ($('textarea[name=to]') as HTMLTextAreaElement).value = 'bob@example.org, carol@example.org';
    ($('textarea[name=bcc]') as HTMLTextAreaElement).value = 'dan@example.org';
    expect(raws(compose)).toEqual([
      ['bob@example.org', 'to', true],
      ['carol@example.org', 'to', true],
      ['dan@example.org', 'bcc', true],
    ]);
    expect(composeOf($('textarea[name=to]'))).not.toBeNull();
  });

  it('reads Outlook pills (aria-label) and text typed in a well, but not the pills’ display names', () => {
    load(document, OUTLOOK_LIKE());
    $('#well-to').innerHTML =
      '<span class="_EType_RECIPIENT_ENTITY" contenteditable="false" aria-label="ann@example.org"><span class="textContainer-1">Ann</span></span> zed@example.org';
    $('#well-cc').innerHTML =
      '<span class="_EType_RECIPIENT_ENTITY" contenteditable="false" aria-label="Bo &lt;bo@example.org&gt;"><span>Bo</span></span>';
    expect(raws($('#app'))).toEqual([
      ['ann@example.org', 'to', false],
      ['bo@example.org', 'cc', false],
      ['zed@example.org', 'to', true],
    ]);
  });

  it('reads the marks’ Outlook compose page: pills in To and Cc, not the address in the body', () => {
    load(document, OUTLOOK_WRITTEN());
    expect(raws($('[role=dialog]'))).toEqual([
      ['info@deliverable.test', 'to', false],
      ['lead4@rejecting.test', 'to', false],
      ['support@deliverable.test', 'cc', false],
    ]);
  });
});
