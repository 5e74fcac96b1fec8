// Whether a click is unique: no earlier click of its campaign matched it (by cookie, address, or address
// and user agent, as the campaign's `unique_by` says) within the campaign's window. Each click notes its
// keys' time; a later click is unique only when every one of its keys was last seen a window or more ago.
// In memory on one node (warmed from the stored clicks at start, after the journal's replay), or in
// Redis, shared by every node (uniques-redis.ts).
import type { UniqueBy } from '@switchyard/domain';

/** What a uniqueness store answers for one click's keys (hashes from uniqueKeys). */
export interface UniqueClicks {
  /** Notes the keys at `now` and answers whether none was seen within `windowMs` before it. */
  note(keys: readonly number[], now: number, windowMs: number): boolean | Promise<boolean>;
  /** The same answer, with nothing noted (a simulation, a HEAD request). */
  wouldBe(keys: readonly number[], now: number, windowMs: number): boolean | Promise<boolean>;
  /** Keys seen at `at` by stored clicks, at start (`now`): a later time already known is kept. */
  warm(entries: readonly { keys: readonly number[]; at: number; windowMs: number }[], now: number): Promise<void>;
  /** Whether the store still needs warming from the stored clicks (a fresh process, or an emptied Redis). */
  needsWarming(): Promise<boolean>;
  /** Called once warming is done. */
  warmed(): Promise<void>;
}

/** What a click offers for matching: its visitor cookie (when it sent one), its address and agent. */
export interface UniqueSubject {
  /** The visitor id from the click's own cookie; undefined for a visitor without one. */
  cookieId: string | undefined;
  /** A newly given visitor id (noted, so the visitor's next click with it matches). */
  visitorId: string;
  ip: string;
  userAgent: string;
}

/**
 * One key as a 53-bit number: two FNV-1a hashes (different offsets) of the campaign, the kind and the
 * value, in one pass over the text. A number keeps the in-memory map small however long the user agents
 * are. Two different keys share a hash about once in 2^53: at a million keys a day, once in thousands of
 * years.
 */
export function uniqueHash(campaignExternalId: string, kind: string, value: string): number {
  let high = 2166136261;
  let low = 0x811c9dc5 ^ 0x5bd1e995;
  const mix = (text: string) => {
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      high = Math.imul(high ^ code, 16777619);
      low = Math.imul(low ^ code, 16777619);
    }
    high = Math.imul(high ^ 0, 16777619);
    low = Math.imul(low ^ 0, 16777619);
  };
  mix(campaignExternalId);
  mix(kind);
  mix(value);
  return ((high >>> 0) & 0x1fffff) * 4294967296 + (low >>> 0);
}

/** The keys of a click for its campaign's `unique_by`. */
export function uniqueKeys(campaignExternalId: string, by: UniqueBy, subject: UniqueSubject): number[] {
  const cookie = () => uniqueHash(campaignExternalId, 'c', subject.cookieId ?? subject.visitorId);
  const ipUa = () => uniqueHash(campaignExternalId, 'u', `${subject.ip}\n${subject.userAgent}`);
  switch (by) {
    case 'cookie':
      return [cookie()];
    case 'ip':
      return [uniqueHash(campaignExternalId, 'i', subject.ip)];
    case 'cookie_or_ip_ua':
      return [cookie(), ipUa()];
    default:
      return [ipUa()];
  }
}

/** The shortest time a generation of keys is kept for, whatever the windows (see retainMs). */
const MIN_GENERATION_MS = 60_000;

/**
 * Key hashes and the last time each was seen, in typed arrays with open addressing: a `Map` of number
 * keys held two heap numbers an entry (tens of bytes of garbage for the collector to trace, at a
 * million keys a day) and had to be swept entry by entry, a pause on the event loop that answers clicks.
 */
class KeyTable {
  private keys: Float64Array;
  private times: Float64Array;
  private used: Uint8Array;
  count = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
    this.used = new Uint8Array(capacity);
  }

  get(key: number, hash: number): number | undefined {
    const slot = this.find(key, hash);
    return this.used[slot] ? this.times[slot] : undefined;
  }

  set(key: number, hash: number, time: number): void {
    const slot = this.find(key, hash);
    if (!this.used[slot]) {
      this.used[slot] = 1;
      this.keys[slot] = key;
      this.count += 1;
    }
    this.times[slot] = time;
    if (this.count * 2 > this.used.length) this.grow();
  }

  /** The slot holding `key`, or the empty one where it would go (linear probing; never full). */
  private find(key: number, hash: number): number {
    const mask = this.used.length - 1;
    let slot = hash & mask;
    while (this.used[slot] && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, times, used } = this;
    this.keys = new Float64Array(used.length * 2);
    this.times = new Float64Array(used.length * 2);
    this.used = new Uint8Array(used.length * 2);
    this.count = 0;
    for (let slot = 0; slot < used.length; slot += 1) {
      if (used[slot]) this.set(keys[slot]!, hashOf(keys[slot]!), times[slot]!);
    }
  }
}

/** The hash's low 32 bits and high 21 bits, mixed: uniqueHash spreads both already. */
function hashOf(key: number): number {
  return ((key >>> 0) ^ Math.imul(Math.floor(key / 4294967296), 0x9e3779b1)) >>> 0;
}

/**
 * 256 tables, a key's by the top bits of its hash: each grows apart, so growing copies a 256th of the
 * keys (a single table of a million keys took 230 ms to grow, all of it a pause for the clicks).
 */
class KeyTimes {
  private readonly tables = Array.from({ length: 256 }, () => new KeyTable(64));

  get size(): number {
    return this.tables.reduce((sum, table) => sum + table.count, 0);
  }

  get(key: number): number | undefined {
    const hash = hashOf(key);
    return this.tables[hash >>> 24]!.get(key, hash);
  }

  set(key: number, time: number): void {
    const hash = hashOf(key);
    this.tables[hash >>> 24]!.set(key, hash, time);
  }
}

/**
 * Uniqueness on this node: each key's hash and the last time it was seen, in two generations. Keys are
 * noted in the current one; once it is `retainMs` old it becomes the previous one and the one before is
 * dropped whole, so a key lives at least `retainMs` after it was last noted, and no sweep walks them.
 */
export class InMemoryUniqueClicks implements UniqueClicks {
  private current = new KeyTimes();
  private previous = new KeyTimes();
  private generationAt = Number.NEGATIVE_INFINITY;
  private warmedOnce = false;
  /** The longest window of any campaign: keys older than it can match nothing. */
  retainMs = 24 * 60 * 60 * 1000;

  note(keys: readonly number[], now: number, windowMs: number): boolean {
    if (now - this.generationAt >= Math.max(this.retainMs, MIN_GENERATION_MS)) this.nextGeneration(now);
    let unique = true;
    for (const key of keys) {
      const last = this.lastSeen(key);
      if (last !== undefined && now - last < windowMs) unique = false;
      if (last === undefined || now > last) this.current.set(key, now);
    }
    return unique;
  }

  wouldBe(keys: readonly number[], now: number, windowMs: number): boolean {
    for (const key of keys) {
      const last = this.lastSeen(key);
      if (last !== undefined && now - last < windowMs) return false;
    }
    return true;
  }

  async warm(entries: readonly { keys: readonly number[]; at: number }[]): Promise<void> {
    for (const { keys, at } of entries) {
      for (const key of keys) {
        const last = this.lastSeen(key);
        if (last === undefined || at > last) this.current.set(key, at);
      }
    }
  }

  async needsWarming(): Promise<boolean> {
    return !this.warmedOnce;
  }

  async warmed(): Promise<void> {
    this.warmedOnce = true;
  }

  /** Keys held, a key noted in both generations counted twice (tests and diagnostics). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private lastSeen(key: number): number | undefined {
    return this.current.get(key) ?? this.previous.get(key);
  }

  private nextGeneration(now: number): void {
    this.previous = this.current;
    this.current = new KeyTimes();
    this.generationAt = now;
  }
}
