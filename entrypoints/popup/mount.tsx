/** The popup app, loaded by main.tsx after the first paint. */
import { render } from 'preact';
import { App } from '@/components/popup/app';

export function mount(root: HTMLElement): void {
  render(<App />, root);
}
