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

/** How often the in-memory map drops keys past every window. */
const SWEEP_EVERY_MS = 60_000;

/** Uniqueness on this node: each key's hash and the last time it was seen. */
export class InMemoryUniqueClicks implements UniqueClicks {
  private readonly seen = new Map<number, number>();
  private sweptAt = 0;
  private warmedOnce = false;
  /** The longest window of any campaign: keys older than it can match nothing. */
  retainMs = 24 * 60 * 60 * 1000;

  note(keys: readonly number[], now: number, windowMs: number): boolean {
    let unique = true;
    for (const key of keys) {
      const last = this.seen.get(key);
      if (last !== undefined && now - last < windowMs) unique = false;
      if (last === undefined || now > last) this.seen.set(key, now);
    }
    if (now - this.sweptAt >= SWEEP_EVERY_MS) this.sweep(now);
    return unique;
  }

  wouldBe(keys: readonly number[], now: number, windowMs: number): boolean {
    for (const key of keys) {
      const last = this.seen.get(key);
      if (last !== undefined && now - last < windowMs) return false;
    }
    return true;
  }

  async warm(entries: readonly { keys: readonly number[]; at: number }[]): Promise<void> {
    for (const { keys, at } of entries) {
      for (const key of keys) {
        const last = this.seen.get(key);
        if (last === undefined || at > last) this.seen.set(key, at);
      }
    }
  }

  async needsWarming(): Promise<boolean> {
    return !this.warmedOnce;
  }

  async warmed(): Promise<void> {
    this.warmedOnce = true;
  }

  /** Keys held (tests and diagnostics). */
  get size(): number {
    return this.seen.size;
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [key, at] of this.seen) if (now - at >= this.retainMs) this.seen.delete(key);
  }
}
