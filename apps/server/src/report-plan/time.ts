// Days and hours in a report's timezone. Events store created_at as ISO-8601 UTC text; the database
// groups them by UTC quarter-hour (every zone's offset is a whole number of quarter-hours), and these
// helpers turn a quarter-hour into the day and hour it falls in locally, the same on SQLite and PostgreSQL.
// The zone's rules are read through @date-fns/tz (Intl's own data underneath).

import { tzOffset } from '@date-fns/tz';
import { isTimeZone } from '@switchyard/domain';
import { LRUCache } from 'lru-cache';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Refuses a zone Intl does not know, as Intl does. tzOffset would answer NaN for it, or an offset read
 * from the name ("Mars+05:30"): neither should reach a report's bounds.
 */
function known(timeZone: string): string {
  if (!isTimeZone(timeZone)) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  return timeZone;
}

/** The zone's offset from UTC at an instant, in minutes (local = UTC + offset). */
function offsetAt(instant: number, timeZone: string): number {
  return tzOffset(timeZone, new Date(instant));
}

/** The same in whole milliseconds (old local-mean-time offsets have seconds). */
function offsetMs(instant: number, timeZone: string): number {
  return Math.round(offsetAt(instant, timeZone) * MINUTE_MS);
}

/** The wall-clock time of an instant in a zone, as an ISO string read in UTC (`YYYY-MM-DDTHH:mm…`). */
function wallClock(instant: number, timeZone: string): string {
  return new Date(instant + offsetMs(instant, timeZone)).toISOString();
}

/**
 * The first instant of a local day (YYYY-MM-DD) in a zone. A day that starts inside a DST gap starts at
 * the first local time that exists. Not TZDate: near a transition its answer depends on the process's
 * own zone (America/Havana on 2018-11-04 lost its first hour with TZ=America/Sao_Paulo).
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date);
  // Two passes settle the offset on either side of a transition.
  let instant = wall - offsetMs(wall, known(timeZone));
  instant = wall - offsetMs(instant, timeZone);
  // Midnight does not exist (a gap): step forward to the first quarter-hour of the day.
  while (wallClock(instant, timeZone).slice(0, 10) < day) instant += 15 * MINUTE_MS;
  return new Date(instant);
}

/** The day after a YYYY-MM-DD day. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
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
    const local = wallClock(Date.parse(`${utcHour}:00:00Z`) + quarter * 15 * MINUTE_MS, known(timeZone));
    found = { day: local.slice(0, 10), hour: local.slice(11, 13) };
    cache.set(key, found);
  }
  return found;
}

/** How finely the event scan groups created_at in UTC (see `utcGrain`). */
export type UtcGrain = 'day' | 'hour' | 'quarter';

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
  known(timeZone);
  let allZero = true;
  for (const instant of sampleInstants(from, to)) {
    const offset = offsetAt(instant, timeZone);
    if (offset % 60 !== 0) return 'quarter';
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
 * Spans already found, by zone and range. A report asks for the same range several times (the local days
 * it is split into, each table's query), and a year of hourly readings is some 25 ms.
 */
const spansFound = new LRUCache<string, OffsetSpan[]>({ max: 256 });

/**
 * The zone's offsets over [from, to), in order, each up to the instant it changes (found to the minute by
 * bisection between two hourly readings): a columnar store buckets local days and hours itself with them.
 * Not tzScan: it steps a month at a time (a change undone within the month is missed) and stops at the hour.
 */
export function offsetSpans(from: string, to: string, timeZone: string): OffsetSpan[] {
  const key = `${known(timeZone)} ${from} ${to}`;
  let spans = spansFound.get(key);
  if (!spans) {
    spans = readSpans(Date.parse(from), Date.parse(to), timeZone);
    spansFound.set(key, spans);
  }
  return spans.map((span) => ({ ...span }));
}

function readSpans(start: number, end: number, timeZone: string): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let current = offsetAt(start, timeZone);
  for (let instant = start; instant < end; ) {
    const next = Math.min(instant + HOUR_MS, end);
    const offset = offsetAt(next < end ? next : end - 1, timeZone);
    if (offset !== current) {
      // The change lies in (instant, next]: bisect to the minute.
      let low = instant;
      let high = next;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / (2 * MINUTE_MS)) * MINUTE_MS;
        if (offsetAt(middle, timeZone) === current) low = middle;
        else high = middle;
      }
      spans.push({ until: new Date(high).toISOString(), offsetMinutes: current });
      current = offsetAt(high, timeZone);
    }
    instant = next;
  }
  spans.push({ until: null, offsetMinutes: current });
  return spans;
}
