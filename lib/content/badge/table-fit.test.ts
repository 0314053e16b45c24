// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { fitStyle } from './sheet';
import { endsCell, fitInCell, planFit } from './table-fit';

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

describe('planFit', () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
  /** A row whose address ends at x = `end` and whose next cell's content starts at x = 100. */
  function row(end: number) {
    document.body.replaceChildren();
    const template = document.createElement('template');
    template.innerHTML =
      '<table><tr><td><a href="#">a@b.test</a></td><td style="padding-left:4px;border-left:1px solid">x</td></tr></table>';
    document.body.append(template.content);
    const a = document.querySelector('a') as HTMLElement;
    const next = document.querySelectorAll('td')[1] as HTMLElement;
    const rect = (left: number, right: number) => ({
      left,
      right,
      top: 0,
      bottom: 10,
      width: right - left,
      height: 10,
    });
    a.getClientRects = () => [rect(end - 50, end)] as unknown as DOMRectList;
    next.getBoundingClientRect = () => rect(95, 150) as DOMRect;
    return a;
  }
  function place(a: HTMLElement) {
    const badge = document.createElement('verimark-badge');
    fitInCell(badge, a, false, new AbortController().signal);
    a.after(badge);
    return badge;
  }

  it('places the badge already fitted to the room read before it was written', async () => {
    await frame();
    let a = row(60);
    planFit(a);
    expect(place(a).dataset.fit).toBe('full');
    await frame();
    a = row(88); // 12 px of room: compact, 1 px after the address (the sheet's: no inline style)
    planFit(a);
    const badge = place(a);
    expect(badge.dataset.fit).toBe('compact');
    expect(badge.style.getPropertyValue('margin-inline-start')).toBe('');
    await frame();
    a = row(95); // 5 px: pulled back over its own address
    planFit(a);
    expect(place(a).dataset.fit).toBe('over');
  });

  it('reads nothing once a badge was written in this frame (layout is not clean)', async () => {
    await frame();
    const a = row(95);
    place(row(60));
    planFit(a);
    expect(place(a).dataset.fit).toBe('full'); // not planned: fitted in the next frame instead
  });

  it('fits in a frame of the badge’s window even while another window never renders one', async () => {
    await frame();
    // A badge of a frame that never renders (a hidden iframe): its frame is asked, never given.
    const stuck = { requestAnimationFrame: () => 1, addEventListener: () => {} } as unknown as Window;
    const hidden = badgeIn(
      '<table><tr><td><a>h@b.test</a><verimark-badge></verimark-badge></td></tr></table>',
    );
    Object.defineProperty(hidden, 'ownerDocument', { value: { defaultView: stuck } });
    fitInCell(hidden as HTMLElement, hidden.previousSibling as Node, false, new AbortController().signal);
    await frame();
    const badge = place(row(95)); // not planned: placed full, fitted in the next frame
    expect(badge.dataset.fit).toBe('full');
    // Laid out 3 px (a full badge's start margin) after the address's end at x = 95: 5 px of room.
    badge.getBoundingClientRect = () => ({ left: 98, right: 112, top: 0, bottom: 14 }) as DOMRect;
    await frame();
    expect(badge.dataset.fit).toBe('over');
  });

  it('reads the next cell’s edge once per column, and row by row in tables with spans (a cell’s index is no column there)', async () => {
    /**
     * Two rows with the address in the second cell of each; `span`: the second row's first cell
     * spans two columns (so its address sits one column further right). Counts each next cell's reads.
     */
    function table(span: string) {
      const pad = 'padding-left:4px;border-left:1px solid';
      document.body.replaceChildren();
      const template = document.createElement('template');
      template.innerHTML =
        `<table><tr><td>1</td><td><a>a@b.test</a></td><td style="${pad}">x</td><td></td></tr>` +
        `<tr><td${span}>2</td><td><a>c@d.test</a></td><td style="${pad}">y</td></tr></table>`;
      document.body.append(template.content);
      const reads: number[] = [];
      const links = [...document.querySelectorAll('a')];
      links.forEach((a, i) => {
        a.getClientRects = () => [{ left: 40, right: 88, top: 0, bottom: 10 }] as unknown as DOMRectList;
        const next = a.parentElement?.nextElementSibling as HTMLElement;
        reads[i] = 0;
        next.getBoundingClientRect = () => {
          reads[i] = (reads[i] ?? 0) + 1;
          // The second row's next cell would leave room for a full badge: read, it would say so.
          return { left: i === 0 ? 100 : 200, right: 300, top: 0, bottom: 10 } as DOMRect;
        };
      });
      return { links, reads };
    }
    await frame();
    const plain = table('');
    for (const a of plain.links) planFit(a);
    expect(plain.reads).toEqual([1, 0]);
    expect(plain.links.map((a) => place(a as HTMLElement).dataset.fit)).toEqual(['compact', 'compact']);
    await frame();
    const spanned = table(' colspan="2"');
    for (const a of spanned.links) planFit(a);
    expect(spanned.reads).toEqual([1, 1]);
    expect(spanned.links.map((a) => place(a as HTMLElement).dataset.fit)).toEqual(['compact', 'full']);
  });
});
