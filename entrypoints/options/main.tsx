import { render } from 'preact';
import { OptionsApp } from '@/components/options/options-app';

const root = document.getElementById('app');
if (root) render(<OptionsApp />, root);
