// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { inReceivedBody } from './received';

function at(html: string, selector: string): Element {
  // Test fixture only: markup written here, never page data in the extension.
  document.body.innerHTML = html;
  const el = document.querySelector(selector);
  if (!el) throw new Error(`no ${selector}`);
  return el;
}

describe('inReceivedBody', () => {
  beforeEach(() => document.body.replaceChildren());

  it('holds back text and links in Gmail and Outlook message bodies', () => {
    const gmail =
      '<div data-message-id="#m"><div class="ii gt"><div class="a3s aiL"><p>x@y.test</p></div></div></div>';
    expect(inReceivedBody(at(gmail, 'p'), 'text')).toBe(true);
    expect(
      inReceivedBody(at('<div role="document"><a href="mailto:x@y.test">x</a></div>', 'a'), 'mailto'),
    ).toBe(true);
    expect(inReceivedBody(at('<div id="UniqueMessageBody_3"><p>x@y.test</p></div>', 'p'), 'text')).toBe(true);
  });

  it('never holds back recipients being written, nor addresses outside message bodies', () => {
    const chip =
      '<div role="document"><div name="to"><div role="option" data-hovercard-id="x@y.test"></div></div></div>';
    expect(inReceivedBody(at(chip, '[role=option]'), 'chip')).toBe(false);
    expect(
      inReceivedBody(at('<div role="document"><span aria-label="x@y.test"></span></div>', 'span'), 'outlook'),
    ).toBe(false);
    expect(inReceivedBody(at('<div data-message-id="#m"><p>x@y.test</p></div>', 'p'), 'text')).toBe(false);
    expect(inReceivedBody(at('<main><p>x@y.test</p></main>', 'p'), 'text')).toBe(false);
  });
});
