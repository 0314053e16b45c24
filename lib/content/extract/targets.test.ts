// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { extractTarget, inputAddresses } from './targets';

function el(html: string, selector: string): Element {
  const box = document.createElement('div');
  // Test fixture only: markup written here, never page data in the extension.
  box.innerHTML = html;
  document.body.append(box);
  const found = box.querySelector(selector);
  if (!found) throw new Error(`no ${selector}`);
  return found;
}

describe('extractTarget', () => {
  beforeEach(() => document.body.replaceChildren());

  it('takes up email inputs by type, name, id or autocomplete, with their value', () => {
    expect(extractTarget(el('<input type="email" value=" a@x.com ">', 'input'))).toEqual({
      kind: 'input',
      emails: ['a@x.com'],
    });
    expect(extractTarget(el('<input name="contact_email" value="b@y.com">', 'input'))?.emails).toEqual([
      'b@y.com',
    ]);
    expect(extractTarget(el('<input id="E-Mail" value="c@z.com">', 'input'))?.emails).toEqual(['c@z.com']);
    expect(extractTarget(el('<input autocomplete="work email" value="d@w.com">', 'input'))?.emails).toEqual([
      'd@w.com',
    ]);
    expect(
      extractTarget(el('<input type="email" multiple value="a@x.com,b@y.com">', 'input'))?.emails,
    ).toEqual(['a@x.com', 'b@y.com']);
  });

  it('an empty field is taken up without addresses; a value with no @ is kept whole (to be judged invalid)', () => {
    expect(extractTarget(el('<input type="email">', 'input'))).toEqual({ kind: 'input', emails: [] });
    expect(extractTarget(el('<input type="email" value="not an address">', 'input'))?.emails).toEqual([
      'not an address',
    ]);
  });

  it('a field whose text is not exactly one address per entry is kept whole (invalid), never read as another', () => {
    const value = (v: string) => {
      const input = el('<input type="email">', 'input') as HTMLInputElement;
      input.value = v;
      return extractTarget(input)?.emails;
    };
    expect(value('gina smith@good.test')).toEqual(['gina smith@good.test']);
    expect(value('Email: bob@good.test')).toEqual(['Email: bob@good.test']);
    expect(value('Gina Smith <gina@good.test>')).toEqual(['gina@good.test']);
    expect(value('"Doe, Jo" <jo@y.org>; a@x.com')).toEqual(['jo@y.org', 'a@x.com']);
    expect(value('a@x.com b@y.com')).toEqual(['a@x.com b@y.com']);
  });

  it('leaves non-text inputs and unrelated fields alone', () => {
    expect(
      extractTarget(el('<input type="checkbox" name="email_opt_in" value="a@x.com">', 'input')),
    ).toBeNull();
    expect(extractTarget(el('<input type="hidden" name="email" value="a@x.com">', 'input'))).toBeNull();
    expect(extractTarget(el('<input type="text" name="city" value="a@x.com">', 'input'))).toBeNull();
  });

  it('reads mailto links, whatever the case of the scheme', () => {
    expect(extractTarget(el('<a href="MAILTO:a@x.com?cc=b@y.com">write</a>', 'a'))).toEqual({
      kind: 'mailto',
      emails: ['a@x.com', 'b@y.com'],
    });
    expect(extractTarget(el('<a href="https://x.com">x</a>', 'a'))).toBeNull();
    expect(extractTarget(el('<a href="mailto:bob.good.test">bob</a>', 'a'))).toEqual({
      kind: 'mailto',
      emails: ['bob.good.test'],
    });
    expect(extractTarget(el('<a href="mailto:?subject=Hi">write</a>', 'a'))?.emails).toEqual([]);
  });

  it('reads Gmail recipient chips from data-hovercard-id in to, cc and bcc', () => {
    const html = '<div name="cc"><div role="option" data-hovercard-id="jo@y.org"><span>Jo</span></div></div>';
    expect(extractTarget(el(html, '[data-hovercard-id]'))).toEqual({ kind: 'chip', emails: ['jo@y.org'] });
    const outside = '<div name="subject"><div data-hovercard-id="jo@y.org"></div></div>';
    expect(extractTarget(el(outside, '[data-hovercard-id]'))).toBeNull();
  });

  it('reads an address typed in a Gmail recipient field but not yet chipped', () => {
    const html = '<div name="to"><input aria-label="To recipients" value="new@person.test, half"></div>';
    expect(extractTarget(el(html, 'input'))).toEqual({
      kind: 'recipient-input',
      emails: ['new@person.test'],
    });
  });

  it('reads addresses of opened messages (span[email]) and Outlook recipients where shown', () => {
    expect(extractTarget(el('<span email="from@x.com" name="From">From</span>', 'span'))).toEqual({
      kind: 'message',
      emails: ['from@x.com'],
    });
    const owa =
      '<div role="group" id="x_TO"><span title="Jo Doe &lt;jo@y.org&gt;"><span>Jo Doe</span></span></div>';
    expect(extractTarget(el(owa, '[title]'))).toEqual({ kind: 'outlook', emails: ['jo@y.org'] });
    const leaf = '<div role="group" id="x_CC"><span>raw@typed.test</span></div>';
    expect(extractTarget(el(leaf, 'span'))).toEqual({ kind: 'outlook', emails: ['raw@typed.test'] });
    const nameOnly = '<div role="group" id="x_CC"><span>Jo Doe</span></div>';
    expect(extractTarget(el(nameOnly, 'span'))).toBeNull();
  });

  it('keeps hostile values as plain strings', () => {
    const hostile = '"><img src=x onerror="window.pwned=1">@evil.test';
    const input = el('<input type="email">', 'input') as HTMLInputElement;
    input.value = hostile;
    const target = extractTarget(input);
    // No address-like token survives the markup, so the whole value is kept, as text, to be judged invalid.
    expect(target?.emails).toEqual([hostile]);
    expect(inputAddresses(`${hostile}, ok@fine.test`)).toEqual(['ok@fine.test']);
    input.value = `${hostile}, ok@fine.test`;
    expect(extractTarget(input)?.emails).toEqual([hostile, 'ok@fine.test']);
    expect(document.querySelector('img')).toBeNull();
    const span = el('<span email="x">Someone</span>', 'span');
    span.setAttribute('email', '"><svg onload="window.pwned=1">@evil.test');
    expect(extractTarget(span)).toEqual({
      kind: 'message',
      emails: ['"><svg onload="window.pwned=1">@evil.test'],
    });
    expect(document.querySelector('svg')).toBeNull();
  });
});
