/**
 * ARIA tabs (WAI-ARIA Authoring Practices, automatic activation): one tab stop, arrow keys,
 * Home and End move between tabs. Every panel stays mounted, so switching keeps its state.
 */
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabSpec {
  id: string;
  label: string;
  panel: ComponentChildren;
}

export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
}: {
  tabs: TabSpec[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
}) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    list.current?.querySelector<HTMLElement>(`#tab-${tab.id}`)?.focus();
  };
  return (
    <>
      <div class="tablist" role="tablist" aria-label={label} ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={tab.id === selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <section
          key={tab.id}
          class="tabpanel"
          role="tabpanel"
          id={`panel-${tab.id}`}
          aria-labelledby={`tab-${tab.id}`}
          hidden={tab.id !== selected}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA tabs: a panel takes focus after its tab
          tabIndex={0}
        >
          {tab.panel}
        </section>
      ))}
    </>
  );
}
