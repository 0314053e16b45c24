import { render } from 'preact';
import { OptionsApp } from '@/components/options/options-app';
import { t, uiLanguage } from '@/lib/shared/i18n';

// The page speaks the UI language (the one browser.i18n picked its strings for).
document.documentElement.lang = uiLanguage();
document.title = t('options_title');

const root = document.getElementById('app');
if (root) render(<OptionsApp />, root);
