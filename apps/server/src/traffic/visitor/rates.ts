// "more than N clicks per minute from one address on one campaign" makes a bot, and a lead is
// unique for its campaign within a day. Both are counted on this node.

const SLOTS = 1 << 20;
const MINUTE_MS = 60_000;

function fnv1a(text: string, seed: number): number {
  let hash = seed;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

/**
 * Clicks per address and campaign in the current minute, in two rows of 2^20 counters (a count-min
 * sketch, 4 MiB): memory stays the same however many addresses a minute brings, where a map of them
 * grew by a key per address. Two addresses share a counter only if they collide in both rows, so a
 * count is at worst a little high, never low.
 */
export class ClickRates {
  private readonly rows = [new Uint16Array(SLOTS), new Uint16Array(SLOTS)] as const;
  private minute = -1;

  /** Counts one click and answers the address's clicks on the campaign this minute, this one included. */
  count(campaignExternalId: string, ip: string, now: number): number {
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.rows[0].fill(0);
      this.rows[1].fill(0);
    }
    const key = `${campaignExternalId} ${ip}`;
    const first = fnv1a(key, 2166136261) & (SLOTS - 1);
    const second = fnv1a(key, 16777619) & (SLOTS - 1);
    const a = Math.min(this.rows[0][first]! + 1, 65_535);
    const b = Math.min(this.rows[1][second]! + 1, 65_535);
    this.rows[0][first] = a;
    this.rows[1][second] = b;
    return Math.min(a, b);
  }
}

/**
 * Counts a click or lead from `ip` on the campaign and says whether it is past the campaign's limit
 * for this minute (a limit of 0 is none; an event without an address is not counted).
 */
export function pastRateLimit(
  rates: ClickRates,
  campaign: { externalId: string; botClicksPerMinute: number },
  ip: string | undefined,
  now: number,
): boolean {
  return (
    campaign.botClicksPerMinute > 0 &&
    Boolean(ip) &&
    rates.count(campaign.externalId, ip!, now) > campaign.botClicksPerMinute
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY = 1000;

/** When each (campaign, email) was first seen in its day, for a lead's uniqueness within 24 hours. */
export class LeadUniques {
  private readonly seen = new Map<string, number>();
  private added = 0;

  /** What `unique` would answer, without noting the lead (a simulation asks). */
  wouldBeUnique(campaignExternalId: string, who: string, now: number): boolean {
    const first = this.seen.get(`${campaignExternalId} ${who}`);
    return first === undefined || now - first >= DAY_MS;
  }

  /**
   * Whether this is the first lead of `who` on the campaign within a day of its first: the day starts
   * at the unique lead, as a click's starts when its cookie is set.
   */
  unique(campaignExternalId: string, who: string, now: number): boolean {
    const key = `${campaignExternalId} ${who}`;
    const first = this.seen.get(key);
    if (first !== undefined && now - first < DAY_MS) return false;
    this.seen.set(key, now);
    this.added += 1;
    if (this.added % PRUNE_EVERY === 0) {
      for (const [entry, at] of this.seen) if (now - at >= DAY_MS) this.seen.delete(entry);
    }
    return true;
  }
}
