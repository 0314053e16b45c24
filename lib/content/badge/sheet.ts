/**
 * The badges' look as one stylesheet per document (and per open shadow root holding badges),
 * adopted through `adoptedStyleSheets`: a thousand badges share one rule set instead of carrying
 * a thousand inline style blocks, so the page's style recalculation stays cheap. Where a
 * constructed sheet cannot be adopted, the same declarations go inline (`inlineBadgeStyle`).
 */
import { type PageStatus, STATUS_LOOK } from '../status';
import type { Style } from './dom';

export const BADGE_TAG = 'verimark-badge';
export const GLYPH_TAG = 'verimark-glyph';
export const OVERLAY_TAG = 'verimark-overlay';
export const SIZE = 14;

const HOST: Style = {
  display: 'inline-block',
  position: 'relative',
  width: `${SIZE}px`,
  height: `${SIZE}px`,
  'min-width': '0',
  'min-height': '0',
  'max-width': 'none',
  'max-height': 'none',
  margin: '0 3px',
  padding: '0',
  border: '0',
  'border-radius': '3px',
  background: 'none',
  'box-sizing': 'content-box',
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

const GLYPH: Style = {
  display: 'block',
  position: 'absolute',
  inset: '1px',
  margin: '0',
  padding: '0',
  'box-sizing': 'border-box',
  border: '0',
  background: 'none',
};

function glyphStyle(status: PageStatus, inset = true): Style {
  const look = STATUS_LOOK[status];
  return {
    background: look.ring ? 'transparent' : look.color,
    border: look.ring ? `2px ${look.ring} ${look.color}` : '0',
    'border-radius': look.radius,
    'clip-path': look.clip ?? 'none',
    inset: inset && (look.ring || look.clip === null) ? '1px' : '0',
  };
}

const block = (style: Style) =>
  Object.entries(style)
    .map(([k, v]) => `${k}:${v} !important`)
    .join(';');

function cssText(): string {
  const rules = [
    `${BADGE_TAG}{${block(HOST)}}`,
    `${BADGE_TAG}:focus-visible{outline:2px solid #2f7fd6 !important;outline-offset:1px !important}`,
    `${BADGE_TAG}::before{content:"" !important;${block(GLYPH)}}`,
  ];
  for (const status of Object.keys(STATUS_LOOK) as PageStatus[]) {
    rules.push(`${BADGE_TAG}[data-status="${status}"]::before{${block(glyphStyle(status))}}`);
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

export function inlineGlyphStyle(status: PageStatus): Style {
  return { ...GLYPH, ...glyphStyle(status) };
}
