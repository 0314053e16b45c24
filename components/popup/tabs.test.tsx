// @vitest-environment happy-dom
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

function Harness() {
  const [selected, setSelected] = useState('a');
  return (
    <Tabs
      label="Tools"
      selected={selected}
      onSelect={setSelected}
      tabs={[
        { id: 'a', label: 'A', panel: <p>panel A</p> },
        { id: 'b', label: 'B', panel: <p>panel B</p> },
        { id: 'c', label: 'C', panel: <p>panel C</p> },
      ]}
    />
  );
}

function press(key: string) {
  act(() => {
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
}

const selectedTab = () => document.querySelector('[role=tab][aria-selected=true]');
const visiblePanels = () => [...document.querySelectorAll('[role=tabpanel]:not([hidden])')];

describe('Tabs', () => {
  afterEach(() => {
    render(null, document.body);
  });

  it('wires tabs to panels with ARIA and one tab stop', () => {
    act(() => render(<Harness />, document.body));
    expect(document.querySelector('[role=tablist]')?.getAttribute('aria-label')).toBe('Tools');
    const tabs = [...document.querySelectorAll('[role=tab]')];
    expect(tabs.map((tab) => tab.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    expect(tabs[1]?.getAttribute('aria-controls')).toBe('panel-b');
    expect(document.getElementById('panel-b')?.getAttribute('aria-labelledby')).toBe('tab-b');
    expect(visiblePanels().map((p) => p.textContent)).toEqual(['panel A']);
  });

  it('moves with arrow keys, Home and End, wrapping around, and focuses the new tab', () => {
    act(() => render(<Harness />, document.body));
    (document.getElementById('tab-a') as HTMLElement).focus();
    press('ArrowRight');
    expect(selectedTab()?.id).toBe('tab-b');
    expect(document.activeElement?.id).toBe('tab-b');
    expect(visiblePanels().map((p) => p.textContent)).toEqual(['panel B']);
    press('End');
    expect(selectedTab()?.id).toBe('tab-c');
    press('ArrowRight');
    expect(selectedTab()?.id).toBe('tab-a');
    press('ArrowLeft');
    expect(selectedTab()?.id).toBe('tab-c');
    press('Home');
    expect(selectedTab()?.id).toBe('tab-a');
  });
});
