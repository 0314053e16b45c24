/**
 * "More download options": a menu button (WAI-ARIA menu button pattern) offering the subsets
 * "Deliverable only", "Deliverable and risky" and "Undeliverable only". Arrow keys move, Escape
 * closes and gives focus back to the button.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '@/lib/shared/i18n';
import { SUBSETS, type Subset } from '@/lib/shared/views';

export function DownloadMenu({
  id,
  fileName,
  onPick,
}: {
  id: string;
  fileName: string;
  onPick: (subset: Subset) => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const close = (event: MouseEvent) => {
      const target = event.target as Node | null;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % list.length,
      ArrowUp: (index - 1 + list.length) % list.length,
      Home: 0,
      End: list.length - 1,
    };
    if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false);
      if (event.key === 'Escape') {
        event.preventDefault();
        button.current?.focus();
      }
      return;
    }
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    list[next]?.focus();
  };

  const menuId = `subsets-${id}`;
  return (
    <div class="menu-wrap">
      <button
        type="button"
        class="secondary"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('popup_more_downloads_named', fileName)}
        onClick={() => setOpen(!open)}
      >
        {t('popup_more_downloads')}
      </button>
      {open && (
        <div
          class="menu"
          role="menu"
          id={menuId}
          ref={menu}
          aria-label={t('popup_more_downloads')}
          onKeyDown={onKeyDown}
        >
          {SUBSETS.map((subset) => (
            <button
              key={subset}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                button.current?.focus();
                onPick(subset);
              }}
            >
              {t(`popup_subset_${subset}`)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
