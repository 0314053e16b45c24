/**
 * The mark beside a target: a zero-size, absolutely positioned host (so no host layout changes,
 * tables keep their widths) holding a shadow root with a small round button; clicking it opens a
 * popover (popover.ts). Colour, icon and an accessible label say the verdict.
 * The shadow root is closed and its buttons answer only the user's own clicks: a page script can
 * neither reach the controls nor press them.
 */

import { t } from '../../shared/i18n';
import type { MarkStatus } from '../../shared/messages';
import { BADGE_TAG } from '../scan';
import { STATUS_LOOK, type StatusLook, UNVERIFIED_LOOK } from '../status';
import { isUserEvent } from '../user-event';
import { h, isolateEvents, setStyle } from './dom';
import { type AddressLine, renderPopover } from './popover';

export interface BadgeView {
  status: MarkStatus;
  /** True when some address waits for an explicit "Verify" (over budget, or after an error). */
  unverified: boolean;
  lines: AddressLine[];
  onVerify(): void;
}

export interface Badge {
  host: HTMLElement;
  update(view: BadgeView): void;
  remove(): void;
}

const SIZE = 16;
/** Each badge's closed shadow root, for the extension's own code and tests (never the page). */
const roots = new WeakMap<Element, ShadowRoot>();

export function badgeRoot(host: Element): ShadowRoot | undefined {
  return roots.get(host);
}

function look(view: BadgeView): StatusLook {
  return view.unverified && view.status === 'pending' ? UNVERIFIED_LOOK : STATUS_LOOK[view.status];
}

export function createBadge(doc: Document, signal: AbortSignal): Badge {
  const host = doc.createElement(BADGE_TAG);
  setStyle(host, {
    all: 'initial',
    position: 'absolute',
    display: 'block',
    width: '0',
    height: '0',
    overflow: 'visible',
    'z-index': '2147483000',
  });
  const root = host.attachShadow({ mode: 'closed' });
  roots.set(host, root);
  isolateEvents(root, signal);
  const button = h(doc, 'button', {
    all: 'initial',
    position: 'absolute',
    left: '0',
    top: '0',
    width: `${SIZE}px`,
    height: `${SIZE}px`,
    'border-radius': '50%',
    color: '#fff',
    font: `bold 11px/${SIZE}px system-ui, sans-serif`,
    'text-align': 'center',
    cursor: 'pointer',
    'box-shadow': '0 0 0 1px #fff',
  });
  button.type = 'button';
  const panel = h(doc, 'div', { display: 'none' });
  root.append(button, panel);
  let current: BadgeView | null = null;
  let open = false;

  const draw = () => {
    if (!current) return;
    const l = look(current);
    button.textContent = l.icon;
    setStyle(button, { background: l.color });
    const label = t(l.labelKey);
    const detail = t('content_badge_label', current.unverified ? t('content_click_to_verify', label) : label);
    button.setAttribute('aria-label', detail);
    button.title = detail;
    button.dataset.status = current.status;
    button.setAttribute('aria-expanded', String(open));
    panel.replaceChildren();
    setStyle(panel, { display: open ? 'block' : 'none' });
    if (open) panel.append(renderPopover(doc, { ...current, label, close: toggle }));
  };
  const toggle = () => {
    open = !open;
    draw();
  };
  button.addEventListener(
    'click',
    (event) => {
      event.preventDefault();
      if (isUserEvent(event)) toggle();
    },
    { signal },
  );

  return {
    host,
    update(view) {
      current = view;
      draw();
    },
    remove() {
      host.remove();
    },
  };
}
