import { render } from 'preact';
import { App } from '@/components/popup/app';

const root = document.getElementById('app');
if (root) render(<App />, root);
