// Days and hours in a report's timezone. Events store created_at as ISO-8601 UTC text; the database
// groups them by UTC quarter-hour (every zone's offset is a whole number of quarter-hours), and these
// helpers turn a quarter-hour into the day and hour it falls in locally, the same on SQLite and PostgreSQL.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function localParts(instant: number, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/**
 * Offsets already read, by zone and instant. A report by day reads the same hours of its range several
 * times (each table's plan, each day's slice), and each reading is a formatToParts call of tens of
 * microseconds. Emptied when it holds OFFSETS_KEPT, so that no sequence of requests grows it for ever.
 */
const offsets = new Map<string, Map<number, number>>();
const OFFSETS_KEPT = 200_000;
let offsetsHeld = 0;

/** The zone's offset from UTC at an instant, in milliseconds (local = UTC + offset). */
function offsetAt(instant: number, timeZone: string): number {
  const known = offsets.get(timeZone)?.get(instant);
  if (known !== undefined) return known;
  const local = localParts(instant, timeZone);
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const offset = asUtc - Math.floor(instant / 1000) * 1000;
  // Kept only once read: a zone Intl refuses leaves nothing behind.
  if (offsetsHeld >= OFFSETS_KEPT) {
    offsets.clear();
    offsetsHeld = 0;
  }
  let zone = offsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    offsets.set(timeZone, zone);
  }
  zone.set(instant, offset);
  offsetsHeld += 1;
  return offset;
}

/**
 * The first instant of a local day (YYYY-MM-DD) in a zone. A day that starts inside a DST gap starts at
 * the first local time that exists.
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date);
  // Two passes settle the offset on either side of a transition.
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  if (localDay(instant, timeZone) < day) {
    // Midnight does not exist (a gap): step forward to the first quarter-hour of the day.
    while (localDay(instant, timeZone) < day) instant += 15 * 60 * 1000;
  }
  return new Date(instant);
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function localDay(instant: number, timeZone: string): string {
  const local = localParts(instant, timeZone);
  return `${local.year}-${pad(local.month)}-${pad(local.day)}`;
}

/** A UTC quarter-hour (`YYYY-MM-DDTHH` and the quarter 0…3) → its local day and hour ("00"…"23"). */
export function localBucket(
  utcHour: string,
  quarter: number,
  timeZone: string,
  cache: Map<string, { day: string; hour: string }>,
): { day: string; hour: string } {
  const key = `${utcHour}:${quarter}`;
  let found = cache.get(key);
  if (!found) {
    const local = localParts(Date.parse(`${utcHour}:${pad(quarter * 15)}:00Z`), timeZone);
    found = { day: `${local.year}-${pad(local.month)}-${pad(local.day)}`, hour: pad(local.hour) };
    cache.set(key, found);
  }
  return found;
}

/** How finely the event scan groups created_at in UTC (see `utcGrain`). */
export type UtcGrain = 'day' | 'hour' | 'quarter';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Instants at which to read the zone's offset over [from, to): every day, or twice a year without a start. */
function sampleInstants(from: string | null, to: string | null): number[] {
  const end = to ? Date.parse(to) - 1 : Date.now();
  if (from) {
    const instants: number[] = [];
    for (let instant = Date.parse(from); instant < end; instant += DAY_MS) instants.push(instant);
    instants.push(end);
    return instants;
  }
  const instants: number[] = [];
  for (let year = 1970; year <= new Date(end).getUTCFullYear(); year += 1) {
    instants.push(Date.UTC(year, 0, 1), Date.UTC(year, 6, 1));
  }
  instants.push(end);
  return instants;
}

/**
 * How finely events over [from, to) must be grouped in UTC for their local days and hours to come out
 * right: by UTC day when the zone's offset is zero throughout and no hour is asked; by UTC hour when every
 * offset in the range is a whole number of hours; else by quarter-hour (every offset is a whole number of
 * them). Coarser groups are fewer rows for the database to sort and for the server to fold: a month of
 * 10 million events grouped by campaign, offer, country and day is 96 times fewer groups by UTC day.
 */
export function utcGrain(from: string | null, to: string | null, timeZone: string, byHour: boolean): UtcGrain {
  let allZero = true;
  for (const instant of sampleInstants(from, to)) {
    const offset = offsetAt(instant, timeZone);
    if (offset % HOUR_MS !== 0) return 'quarter';
    if (offset !== 0) allZero = false;
  }
  return allZero && !byHour ? 'day' : 'hour';
}

/** A stretch of time with one UTC offset: up to `until` (excluded; null: to the end of the range). */
export interface OffsetSpan {
  until: string | null;
  offsetMinutes: number;
}

/**
 * The zone's offsets over [from, to), in order, each up to the instant it changes (found to the minute by
 * bisection between two hourly readings): a columnar store buckets local days and hours itself with them.
 */
export function offsetSpans(from: string, to: string, timeZone: string): OffsetSpan[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const spans: OffsetSpan[] = [];
  let current = offsetAt(start, timeZone);
  for (let instant = start; instant < end; ) {
    const next = Math.min(instant + HOUR_MS, end);
    const offset = offsetAt(next < end ? next : end - 1, timeZone);
    if (offset !== current) {
      // The change lies in (instant, next]: bisect to the minute.
      let low = instant;
      let high = next;
      while (high - low > 60_000) {
        const middle = low + Math.floor((high - low) / 120_000) * 60_000;
        if (offsetAt(middle, timeZone) === current) low = middle;
        else high = middle;
      }
      spans.push({ until: new Date(high).toISOString(), offsetMinutes: current / 60_000 });
      current = offsetAt(high, timeZone);
    }
    instant = next;
  }
  spans.push({ until: null, offsetMinutes: current / 60_000 });
  return spans;
}
