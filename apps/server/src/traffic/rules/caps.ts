// Daily caps are counted at decision time, so a cap holds under concurrent load:
// a take either fits under the limit and counts, or is refused. In process by default; when REDIS_URL
// is set, RedisCapCounters (redis-caps.ts) replaces it behind the same interface.

/** Counters of things sent somewhere today (leads to a path, leads or clicks to an offer). */
export interface CapCounters {
  /** Counts one for `key` on `day` unless `limit` is already reached; true when counted. */
  tryTake(key: string, day: string, limit: number): Promise<boolean>;
  /** Gives back one counted by `tryTake` (a decision that did not go through). */
  release(key: string, day: string): Promise<void>;
  /** Adds `count` spent on `day` as it happens (a postback counted live). */
  add(key: string, day: string, count: number): Promise<void>;
  /**
   * Sets `key`'s count on `day` to `count` (spent according to stored events, at start) unless it is
   * already counting that day: with shared counters another node may be, and its count is the live one.
   */
  warm(key: string, day: string, count: number): Promise<void>;
  /** What `key` has counted on `day`. */
  count(key: string, day: string): Promise<number>;
  /**
   * How many `tryTake` would still count under `limit` on `day`, counting none (a simulation reads
   * it); Infinity for no limit.
   */
  remaining(key: string, day: string, limit: number): Promise<number>;
}

/** One process's counters: exact for a single node; each key keeps only its current day. */
export class InProcessCapCounters implements CapCounters {
  private readonly counters = new Map<string, { day: string; count: number }>();

  tryTake(key: string, day: string, limit: number): Promise<boolean> {
    const counter = this.current(key, day);
    if (limit > 0 && counter.count >= limit) return Promise.resolve(false);
    counter.count += 1;
    return Promise.resolve(true);
  }

  release(key: string, day: string): Promise<void> {
    const counter = this.counters.get(key);
    if (counter && counter.day === day && counter.count > 0) counter.count -= 1;
    return Promise.resolve();
  }

  add(key: string, day: string, count: number): Promise<void> {
    this.current(key, day).count += count;
    return Promise.resolve();
  }

  warm(key: string, day: string, count: number): Promise<void> {
    const counter = this.counters.get(key);
    if (!counter || counter.day < day) this.counters.set(key, { day, count });
    return Promise.resolve();
  }

  count(key: string, day: string): Promise<number> {
    const counter = this.counters.get(key);
    return Promise.resolve(counter && counter.day === day ? counter.count : 0);
  }

  remaining(key: string, day: string, limit: number): Promise<number> {
    if (limit <= 0) return Promise.resolve(Number.POSITIVE_INFINITY);
    const counter = this.counters.get(key);
    // An older day than the one counting is done with, as tryTake refuses it.
    if (counter && counter.day > day) return Promise.resolve(0);
    return Promise.resolve(Math.max(0, limit - (counter?.day === day ? counter.count : 0)));
  }

  private current(key: string, day: string): { day: string; count: number } {
    let counter = this.counters.get(key);
    if (!counter || counter.day !== day) {
      // Days only move forward; an older day's count is done with.
      if (counter && counter.day > day) return { day, count: Number.POSITIVE_INFINITY };
      counter = { day, count: 0 };
      this.counters.set(key, counter);
    }
    return counter;
  }
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) at `now` in `timeZone`; UTC when the zone is empty or unknown. */
export function dayIn(now: Date, timeZone: string): string {
  const zone = timeZone || 'UTC';
  // Offsets change on minute boundaries only, so one answer serves a zone for the whole minute.
  const minute = Math.floor(now.getTime() / 60_000);
  const cached = lastDays.get(zone);
  if (cached?.minute === minute) return cached.day;
  const day = formatDay(now, zone);
  lastDays.set(zone, { minute, day });
  return day;
}

const lastDays = new Map<string, { minute: number; day: string }>();

function formatDay(now: Date, zone: string): string {
  let formatter = dayFormatters.get(zone);
  if (!formatter) {
    try {
      // en-CA writes dates as YYYY-MM-DD.
      formatter = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      return now.toISOString().slice(0, 10);
    }
    dayFormatters.set(zone, formatter);
  }
  return formatter.format(now);
}

export const offerCapKey = (offerExternalId: string) => `offer:${offerExternalId}`;
export const pathRegsCapKey = (flowExternalId: string, pathId: string) => `path-regs:${flowExternalId}:${pathId}`;
/** Postbacks Daily Cap: conversions today on a path (counted as postbacks arrive; routing reads it). */
export const pathPostbacksCapKey = (flowExternalId: string, pathId: string) =>
  `path-postbacks:${flowExternalId}:${pathId}`;

/**
 * Counters that read `counters` and count nothing there (a simulation decides as a click
 * would, and no cap is consumed). What one decision takes is kept here, so it sees its own takes.
 */
export class ReadOnlyCapCounters implements CapCounters {
  private readonly taken = new Map<string, number>();

  constructor(private readonly counters: CapCounters) {}

  async tryTake(key: string, day: string, limit: number): Promise<boolean> {
    if ((await this.remaining(key, day, limit)) <= 0) return false;
    this.taken.set(`${day} ${key}`, this.takenOf(key, day) + 1);
    return true;
  }

  release(key: string, day: string): Promise<void> {
    const taken = this.takenOf(key, day);
    if (taken > 0) this.taken.set(`${day} ${key}`, taken - 1);
    return Promise.resolve();
  }

  add(): Promise<void> {
    return Promise.resolve();
  }

  warm(): Promise<void> {
    return Promise.resolve();
  }

  async count(key: string, day: string): Promise<number> {
    return (await this.counters.count(key, day)) + this.takenOf(key, day);
  }

  async remaining(key: string, day: string, limit: number): Promise<number> {
    return Math.max(0, (await this.counters.remaining(key, day, limit)) - this.takenOf(key, day));
  }

  private takenOf(key: string, day: string): number {
    return this.taken.get(`${day} ${key}`) ?? 0;
  }
}
