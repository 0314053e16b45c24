import { render } from 'preact';
import { App } from '@/components/popup/app';

const root = document.getElementById('app');
// The header in popup.html paints first; the app takes it over on the next frame.
if (root) requestAnimationFrame(() => render(<App />, root));
