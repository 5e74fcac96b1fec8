// The date ranges of the reports screen: days as `YYYY-MM-DD` in the report's timezone, both ends
// included, as `GET /api/reports` takes them (date_from, date_to).

export const DATE_PRESETS = ['today', 'yesterday', 'last7', 'last30', 'thisMonth', 'lastMonth'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

/**
 * Each preset's keyboard shortcut on the reports screen: a digit, pressed while the focus is not in a
 * field. Alt+digit would switch the browser's tabs on Linux and Windows; a bare digit clashes with nothing.
 */
export const DATE_PRESET_SHORTCUTS: Record<DatePreset, string> = {
  today: '1',
  yesterday: '2',
  last7: '3',
  last30: '4',
  thisMonth: '5',
  lastMonth: '6',
};
/** A preset, or `custom` for two days the operator picked. */
export type DateRangeChoice = DatePreset | 'custom';

export interface DateRange {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isDay(text: string | null | undefined): text is string {
  if (!text || !DAY.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The browser's own timezone: what "today" means to the person looking. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The calendar day `now` falls on in `timeZone`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The day `days` after `day` (before, when negative); calendar arithmetic, no timezone involved. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function daysOf({ from, to }: DateRange): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The days a preset covers, seen from `now` in `timeZone`; "last 7 days" ends today. */
export function presetRange(preset: DatePreset, timeZone: string, now: Date = new Date()): DateRange {
  const today = todayIn(timeZone, now);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'last7':
      return { from: addDays(today, -6), to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'lastMonth': {
      // The day before this month's first is last month's last (December, seen from January).
      const last = addDays(`${today.slice(0, 8)}01`, -1);
      return { from: `${last.slice(0, 8)}01`, to: last };
    }
  }
}

/** The preset that covers exactly `range` today, if any (a custom pick of today reads as "Today"). */
export function presetOf(range: DateRange, timeZone: string, now: Date = new Date()): DatePreset | undefined {
  return DATE_PRESETS.find((preset) => {
    const covered = presetRange(preset, timeZone, now);
    return covered.from === range.from && covered.to === range.to;
  });
}
