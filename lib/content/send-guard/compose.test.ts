// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { composeOf, composeRecipients, isSendButton, isSendLabel, sendButtonIn } from './compose';
import {
  GMAIL_CHIP_2021,
  GMAIL_COMPOSE_2020,
  GMAIL_LIKE,
  load,
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
  it('knows Gmail’s and Outlook’s Send labels, not other send actions', () => {
    expect(isSendLabel('Send ‪(Ctrl-Enter)‬')).toBe(true);
    expect(isSendLabel('Send (Ctrl+Enter)')).toBe(true);
    expect(isSendLabel('Send')).toBe(true);
    expect(isSendLabel('Send later')).toBe(false);
    expect(isSendLabel('More send options')).toBe(false);
    expect(isSendLabel('Schedule send')).toBe(false);
    expect(isSendLabel(null)).toBe(false);
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
