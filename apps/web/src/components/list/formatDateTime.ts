import dayjs from 'dayjs';
import i18n from '../../i18n';

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * Dates and times shown in the interface language's way: `May 1, 2026, 2:30 PM` in English,
 * `1 mai 2026, 14:30` in French. Entered dates keep §2.6's Y-m-d H:i (`DateTimeControl`, `DayInput`).
 */
export function formatDateTime(value: unknown, language: string = i18n.language): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const date = dayjs(value);
  if (!date.isValid()) return '';
  let format = formats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    formats.set(language, format);
  }
  return format.format(date.toDate());
}
