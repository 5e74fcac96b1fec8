import dayjs from 'dayjs';

/** Dates in lists read `2026-05-01 14:30` (the spec's Y-m-d H:i). */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DD HH:mm') : '';
}
