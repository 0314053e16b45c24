/** Small, locale-aware formatting helpers for the popup. */
import { t, uiLanguage } from '@/lib/shared/i18n';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(since: number, now = Date.now()): string {
  const age = Math.max(0, now - since);
  if (age < MINUTE) return t('popup_age_now');
  if (age < HOUR) return t('popup_age_minutes', Math.floor(age / MINUTE));
  if (age < DAY) return t('popup_age_hours', Math.floor(age / HOUR));
  return t('popup_age_days', Math.floor(age / DAY));
}

export function formatDate(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(uiLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatNumber(value: number): string {
  return value.toLocaleString(uiLanguage());
}
