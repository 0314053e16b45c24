/**
 * The badges' look as one stylesheet per document (and per open shadow root holding badges),
 * adopted through `adoptedStyleSheets`: a thousand badges share one rule set instead of carrying
 * a thousand inline style blocks, so the page's style recalculation stays cheap. Where a
 * constructed sheet cannot be adopted, the same declarations go inline.
 *
 * A badge is one box and nothing else: its glyph (a shape per status, status.ts) is a small SVG
 * background image, or for the ring statuses the box's own round border — not a child or a
 * pseudo-element, and it is not positioned. So a thousand badges add a thousand plain inline
 * boxes to layout, and no paint layers, clip paths or extra boxes for pre-paint and compositing
 * to walk (measured in Chromium: a positioned `::before` per badge cost more in pre-paint and
 * compositing inputs than the layout of the badges themselves).
 */

import type { Style } from './dom';
import { type PageStatus, STATUS_LOOK } from './status';

export const BADGE_TAG = 'verimark-badge';
export const OVERLAY_TAG = 'verimark-overlay';
export const SIZE = 14;
/** The space kept on each side of a badge in the flow. */
export const MARGIN = 3;
/** A badge's size where a table cell has too little room for a full one (table-fit.ts). */
export const COMPACT = 9;

/** How a badge sits in a table cell (table-fit.ts): full size, compact, or compact over the cell's edge. */
export type Fit = 'full' | 'compact' | 'over';

/** A fit's start margin unless measured: the full badge's margin, 1 px after the address for a compact one. */
export const startOf = (fit: Fit) => (fit === 'full' ? MARGIN : 1);

/**
 * The margins and size of a fit: zero advance (the end margin takes back the start margin and the
 * width). `start`: the start margin (default: startOf).
 */
export function fitStyle(fit: Fit, start = startOf(fit)): Style {
  const size = fit === 'full' ? SIZE : COMPACT;
  return {
    width: `${size}px`,
    height: `${size}px`,
    'margin-inline-start': `${start}px`,
    'margin-inline-end': `${-(size + start)}px`,
  };
}

/** The badge's box; its border, corners and sizing are its glyph's (glyphStyle). */
const HOST: Style = {
  display: 'inline-block',
  position: 'static',
  width: `${SIZE}px`,
  height: `${SIZE}px`,
  'min-width': '0',
  'min-height': '0',
  'max-width': 'none',
  'max-height': 'none',
  margin: `0 ${MARGIN}px`,
  padding: '0',
  'background-color': 'transparent',
  'background-repeat': 'no-repeat',
  'background-position': 'center',
  'background-size': '100% 100%',
  'vertical-align': 'middle',
  float: 'none',
  flex: 'none',
  'align-self': 'center',
  cursor: 'pointer',
  opacity: '1',
  visibility: 'visible',
  transform: 'none',
  'line-height': '0',
  'font-size': '0',
  overflow: 'visible',
  'pointer-events': 'auto',
  'clip-path': 'none',
  outline: 'none',
};

/** A badge inside a form field's end (in-field.ts moves it there by its margins). */
export const FIELD_STYLE: Style = { position: 'absolute', margin: '0', 'z-index': '1' };

/** 1 px of the 14 px badge on the 100-unit view box. */
const PX = 100 / SIZE;

/** The SVG of a status's glyph: its shape in its colour (the same shapes as the popover's). */
export function glyphSvg(status: PageStatus): string {
  const look = STATUS_LOOK[status];
  let shape: string;
  if (look.ring) {
    // A ring 2 px wide, 1 px inside the badge's box.
    const width = 2 * PX;
    const dash =
      look.ring === 'dashed' ? ` stroke-dasharray="${(2.6 * PX).toFixed(1)} ${(1.6 * PX).toFixed(1)}"` : '';
    shape = `<circle cx="50" cy="50" r="${(50 - PX - width / 2).toFixed(1)}" fill="none" stroke="${look.color}" stroke-width="${width.toFixed(1)}"${dash}/>`;
  } else if (look.points) {
    shape = `<polygon points="${look.points}" fill="${look.color}"/>`;
  } else {
    const side = (100 - 2 * PX).toFixed(1);
    shape = `<rect x="${PX.toFixed(1)}" y="${PX.toFixed(1)}" width="${side}" height="${side}" rx="${(2 * PX).toFixed(1)}" fill="${look.color}"/>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${shape}</svg>`;
}

const images = new Map<PageStatus, string>();

/** The glyph as a `background-image` value (built once per status). */
export function glyphImage(status: PageStatus): string {
  let image = images.get(status);
  if (image === undefined) {
    image = `url("data:image/svg+xml,${encodeURIComponent(glyphSvg(status))}")`;
    images.set(status, image);
  }
  return image;
}

const block = (style: Style) =>
  Object.entries(style)
    .map(([k, v]) => `${k}:${v} !important`)
    .join(';');

function cssText(): string {
  const rules = [
    `${BADGE_TAG}{${block(HOST)}}`,
    `${BADGE_TAG}:focus-visible{outline:2px solid #2f7fd6 !important;outline-offset:1px !important}`,
    `${BADGE_TAG}[data-fit="full"]{${block(fitStyle('full'))}}`,
    `${BADGE_TAG}[data-fit="compact"],${BADGE_TAG}[data-fit="over"]{${block(fitStyle('compact'))}}`,
    `${BADGE_TAG}[data-fit="field"]{${block(FIELD_STYLE)}}`,
  ];
  for (const status of Object.keys(STATUS_LOOK) as PageStatus[]) {
    rules.push(`${BADGE_TAG}[data-status="${status}"]{${block(glyphStyle(status))}}`);
  }
  return rules.join('\n');
}

type Adopting = (Document | ShadowRoot) & { adoptedStyleSheets?: CSSStyleSheet[] };
const sheets = new WeakMap<Document, CSSStyleSheet | null>();
const adopted = new WeakSet<Node>();

/** Adopts the badge sheet into `root` once; false when this browser or page does not allow it. */
export function adoptBadgeSheet(root: Node): boolean {
  if (adopted.has(root)) return true;
  const target = root as Adopting;
  const doc = root.nodeType === 9 ? (root as Document) : root.ownerDocument;
  if (!doc || !Array.isArray(target.adoptedStyleSheets)) return false;
  let sheet = sheets.get(doc);
  if (sheet === undefined) {
    try {
      const Ctor = (doc.defaultView as (Window & { CSSStyleSheet: typeof CSSStyleSheet }) | null)
        ?.CSSStyleSheet;
      sheet = Ctor ? new Ctor() : null;
      sheet?.replaceSync(cssText());
    } catch {
      sheet = null;
    }
    sheets.set(doc, sheet);
  }
  if (!sheet) return false;
  try {
    target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
  } catch {
    return false;
  }
  adopted.add(root);
  return true;
}

/** The badge's look as inline styles, where no sheet could be adopted. */
export function inlineHostStyle(): Style {
  return HOST;
}

/**
 * A status's glyph on the badge: a ring is the box's own round border (cheaper for the page to
 * draw than the same ring as an SVG picture, measured in Chromium); a filled shape is its SVG
 * picture. Each sets all four properties (the host style leaves them to the glyph), so a badge
 * styled inline can change status, and a fit that resets the host style keeps the glyph.
 */
export function glyphStyle(status: PageStatus): Style {
  const { ring, color } = STATUS_LOOK[status];
  return ring
    ? {
        'background-image': 'none',
        border: `2px ${ring} ${color}`,
        'border-radius': '50%',
        'box-sizing': 'border-box',
      }
    : {
        'background-image': glyphImage(status),
        border: '0',
        'border-radius': '3px',
        'box-sizing': 'content-box',
      };
}
