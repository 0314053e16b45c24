// @vitest-environment happy-dom
/** What counts as received mail in webmail (not verified on sight) and what does not. */
import { beforeEach, describe, expect, it } from 'vitest';
import { inReceivedMail } from './received';

function at(html: string, selector: string): Element {
  // Test fixture only: markup written here, never page data in the extension.
  document.body.innerHTML = html;
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no ${selector}`);
  return el;
}

describe('inReceivedMail', () => {
  beforeEach(() => document.body.replaceChildren());

  it('holds back text and links in Gmail and Outlook message bodies and Gmail thread rows', () => {
    const gmail =
      '<div data-message-id="#m"><div class="ii gt"><div class="a3s aiL"><p>x@y.test</p></div></div></div>';
    expect(inReceivedMail(at(gmail, 'p'), 'text')).toBe(true);
    expect(
      inReceivedMail(at('<div role="document"><a href="mailto:x@y.test">x</a></div>', 'a'), 'mailto'),
    ).toBe(true);
    expect(inReceivedMail(at('<div id="UniqueMessageBody_3"><p>x@y.test</p></div>', 'p'), 'text')).toBe(true);
    const row = '<table><tr class="zA"><td><span class="y2">write to x@y.test</span></td></tr></table>';
    expect(inReceivedMail(at(row, 'span'), 'text')).toBe(true);
  });

  it('holds back senders: Gmail span[email] anywhere, Outlook pills outside a compose well', () => {
    const list =
      '<table><tr class="zA"><td><span class="yP" email="s@y.test" name="S">S</span></td></tr></table>';
    expect(inReceivedMail(at(list, 'span'), 'message')).toBe(true);
    expect(inReceivedMail(at('<h3><span class="gD" email="s@y.test">S</span></h3>', 'span'), 'message')).toBe(
      true,
    );
    const pill =
      '<div role="document"><span class="_EType_RECIPIENT_ENTITY" aria-label="x@y.test"></span></div>';
    expect(inReceivedMail(at(pill, 'span'), 'outlook')).toBe(true);
  });

  it('verifies senders on sight when the option says so (bodies still wait)', () => {
    expect(inReceivedMail(at('<span email="s@y.test">S</span>', 'span'), 'message', true)).toBe(false);
    expect(inReceivedMail(at('<div class="a3s"><p>x@y.test</p></div>', 'p'), 'text', true)).toBe(true);
  });

  it('never holds back recipients being written, nor addresses outside received mail', () => {
    const chip =
      '<div role="document"><div name="to"><div role="option" data-hovercard-id="x@y.test"></div></div></div>';
    expect(inReceivedMail(at(chip, '[role=option]'), 'chip')).toBe(false);
    const well =
      '<div role="group" id="docking_0_TO"><span class="_EType_RECIPIENT_ENTITY" aria-label="x@y.test"></span></div>';
    expect(inReceivedMail(at(well, 'span'), 'outlook')).toBe(false);
    expect(
      inReceivedMail(at('<div name="to"><input peoplekit-id="a"></div>', 'input'), 'recipient-input'),
    ).toBe(false);
    expect(inReceivedMail(at('<div data-message-id="#m"><p>x@y.test</p></div>', 'p'), 'text')).toBe(false);
    expect(inReceivedMail(at('<main><p>x@y.test</p></main>', 'p'), 'text')).toBe(false);
  });
});
