// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { endsCell, fitStyle } from './table-fit';

function badgeIn(html: string): Element {
  document.body.replaceChildren();
  const template = document.createElement('template');
  template.innerHTML = html;
  document.body.append(template.content);
  const badge = document.querySelector('verimark-badge');
  if (!badge) throw new Error('no badge in the fixture');
  return badge;
}

describe('endsCell', () => {
  it('is true for a badge that ends its cell, through inline wrappers and whitespace', () => {
    expect(
      endsCell(
        badgeIn('<table><tr><td><a href="#">a@b.test</a><verimark-badge></verimark-badge></td></tr></table>'),
      ),
    ).toBe(true);
    expect(
      endsCell(
        badgeIn(
          '<table><tr><td><span><a>a@b.test</a><verimark-badge></verimark-badge> </span>\n</td></tr></table>',
        ),
      ),
    ).toBe(true);
    expect(
      endsCell(badgeIn('<table><tr><th>a@b.test<verimark-badge></verimark-badge></th></tr></table>')),
    ).toBe(true);
  });

  it('is false with content after it in the cell, or outside a table', () => {
    expect(
      endsCell(
        badgeIn('<table><tr><td><a>a@b.test</a><verimark-badge></verimark-badge> (main)</td></tr></table>'),
      ),
    ).toBe(false);
    expect(
      endsCell(
        badgeIn(
          '<table><tr><td><span><a>a</a><verimark-badge></verimark-badge></span><b>x</b></td></tr></table>',
        ),
      ),
    ).toBe(false);
    expect(endsCell(badgeIn('<p><a>a@b.test</a><verimark-badge></verimark-badge></p>'))).toBe(false);
  });
});

describe('fitStyle', () => {
  it('takes back with the end margin exactly the room the badge and its start margin take', () => {
    for (const [fit, pull] of [
      ['full', 0],
      ['compact', 0],
      ['over', 5],
    ] as const) {
      const style = fitStyle(fit, pull);
      const advance = ['width', 'margin-inline-start', 'margin-inline-end']
        .map((k) => Number.parseFloat(style[k] ?? 'NaN'))
        .reduce((a, b) => a + b, 0);
      expect(advance, fit).toBe(0);
    }
    expect(fitStyle('over', -5)['margin-inline-start']).toBe('-5px');
    expect(fitStyle('full')['margin-inline-start']).toBe('3px');
  });
});
