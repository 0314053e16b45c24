/**
 * The guard dialog's look: two palettes chosen from `prefers-color-scheme` (CSSOM styles only,
 * no style sheet: Gmail enforces Trusted Types and a strict CSP) and the styles of its parts.
 * Text colours keep at least 4.5:1 against their background in both palettes.
 */
import type { Style } from '@/lib/content/badge/dom';

export interface Palette {
  backdrop: string;
  panel: string;
  text: string;
  muted: string;
  border: string;
  row: string;
  danger: string;
  warn: string;
  primary: string;
  primaryText: string;
  focus: string;
}

export const LIGHT: Palette = {
  backdrop: 'rgba(15, 23, 42, 0.45)',
  panel: '#ffffff',
  text: '#111827',
  muted: '#4b5563',
  border: '#d1d5db',
  row: '#f9fafb',
  danger: '#b91c1c',
  warn: '#92400e',
  primary: '#1d4ed8',
  primaryText: '#ffffff',
  focus: '#2563eb',
};

export const DARK: Palette = {
  backdrop: 'rgba(0, 0, 0, 0.6)',
  panel: '#1f2937',
  text: '#f3f4f6',
  muted: '#cbd5e1',
  border: '#4b5563',
  row: '#111827',
  danger: '#fca5a5',
  warn: '#fcd34d',
  primary: '#93c5fd',
  primaryText: '#0b1220',
  focus: '#93c5fd',
};

export function paletteFor(win: Window): Palette {
  return win.matchMedia?.('(prefers-color-scheme: dark)').matches ? DARK : LIGHT;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

type LookName =
  | 'host'
  | 'backdrop'
  | 'panel'
  | 'title'
  | 'intro'
  | 'list'
  | 'row'
  | 'email'
  | 'status'
  | 'reason'
  | 'suggestion'
  | 'small'
  | 'actions'
  | 'secondary'
  | 'primary';

export function looks(p: Palette): Record<LookName, Style> {
  const button = {
    all: 'initial',
    'font-family': FONT,
    'font-size': '14px',
    'font-weight': '600',
    'border-radius': '6px',
    padding: '8px 14px',
    cursor: 'pointer',
    'line-height': '20px',
  };
  return {
    host: {
      all: 'initial',
      position: 'fixed',
      inset: '0',
      'z-index': '2147483647',
      display: 'block',
    },
    backdrop: {
      position: 'fixed',
      inset: '0',
      background: p.backdrop,
      display: 'flex',
      'align-items': 'center',
      'justify-content': 'center',
      'font-family': FONT,
    },
    panel: {
      background: p.panel,
      color: p.text,
      border: `1px solid ${p.border}`,
      'border-radius': '10px',
      'box-shadow': '0 12px 40px rgba(0, 0, 0, 0.35)',
      padding: '20px 22px 18px',
      width: 'min(480px, calc(100vw - 32px))',
      'max-height': 'calc(100vh - 32px)',
      overflow: 'auto',
      'box-sizing': 'border-box',
      outline: 'none',
    },
    title: { margin: '0 0 8px', 'font-size': '18px', 'line-height': '24px', 'font-weight': '700' },
    intro: { margin: '0 0 14px', 'font-size': '14px', 'line-height': '20px', color: p.muted },
    list: { margin: '0 0 16px', padding: '0', 'list-style': 'none' },
    row: {
      background: p.row,
      border: `1px solid ${p.border}`,
      'border-radius': '8px',
      padding: '10px 12px',
      margin: '0 0 8px',
      'font-size': '14px',
      'line-height': '20px',
    },
    email: { 'font-weight': '700', 'overflow-wrap': 'anywhere' },
    status: { 'font-weight': '600', 'margin-left': '8px' },
    reason: { margin: '2px 0 0', color: p.muted },
    suggestion: {
      display: 'flex',
      'flex-wrap': 'wrap',
      'align-items': 'center',
      gap: '8px',
      margin: '6px 0 0',
    },
    small: {
      ...button,
      'font-size': '13px',
      padding: '4px 10px',
      border: `1px solid ${p.primary}`,
      color: p.primary,
    },
    actions: { display: 'flex', 'justify-content': 'flex-end', gap: '10px', 'flex-wrap': 'wrap' },
    secondary: { ...button, border: `1px solid ${p.border}`, color: p.text, background: p.panel },
    primary: { ...button, border: `1px solid ${p.primary}`, color: p.primaryText, background: p.primary },
  };
}

/** The focus ring, drawn by hand (inline styles cannot say `:focus-visible`). */
export function focusRing(p: Palette): Style {
  return { outline: `3px solid ${p.focus}`, 'outline-offset': '2px' };
}
