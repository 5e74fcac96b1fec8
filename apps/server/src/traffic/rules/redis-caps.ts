import type { Redis } from 'ioredis';
import { OutageWarning, REDIS_KEY_PREFIX, type WarningLog } from '../../store/redis.js';
import type { CapCounters } from './caps.js';

// Daily caps shared by every node through Redis (REDIS_URL). One key per counter and day,
// `switchyard:cap:<day>:<counter key>` (e.g. `switchyard:cap:2026-05-01:offer:tracker:abc`), so a new day
// starts from zero without anyone resetting anything. Each check-and-count runs as one Lua script, which
// Redis executes alone: two nodes can never both take the last unit of a cap.

/**
 * A key lives until three days after its day began in UTC. A "day" is local to the cap's timezone and
 * ends at most 36 hours after it began in UTC (UTC−12), so the count outlives its day by a day or more.
 */
const KEPT_FOR_SECONDS = 3 * 24 * 60 * 60;

// KEYS[1]: the counter. ARGV[1]: the limit (0 means none). ARGV[2]: when the key expires (Unix seconds).
const TAKE = `
local limit = tonumber(ARGV[1])
if limit > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= limit then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIREAT', KEYS[1], ARGV[2])
return 1`;

const RELEASE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

// ARGV[1]: how many to add or set.
const ADD = `
redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('EXPIREAT', KEYS[1], ARGV[2])
return 0`;

const WARM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('EXPIREAT', KEYS[1], ARGV[2])
  return 1
end
return 0`;

type Script = (key: string, amount: number, expiresAt: number) => Promise<number>;

export interface RedisCapCountersOptions {
  /** Where outages are reported (at most once every few seconds). */
  log: WarningLog;
  /** Start of every key; `switchyard:` unless replaced (tests use one per run). */
  prefix?: string;
}

/**
 * Cap counters in Redis. When Redis does not answer (down, or slower than the command timeout) caps
 * FAIL CLOSED: a take is refused and a count reads as reached, so a capped offer sends to its backup and
 * a capped path rests until Redis is back. Sending traffic past a cap costs the operator money that is
 * not paid back; sending it to the backup only costs the difference in payout. The click itself never
 * waits longer than the command timeout (store/redis.ts).
 */
export class RedisCapCounters implements CapCounters {
  private readonly prefix: string;
  private readonly outage: OutageWarning;
  private readonly take: Script;
  private readonly giveBack: Script;
  private readonly increase: Script;
  private readonly setIfAbsent: Script;

  constructor(
    private readonly client: Redis,
    options: RedisCapCountersOptions,
  ) {
    this.prefix = `${options.prefix ?? REDIS_KEY_PREFIX}cap:`;
    this.outage = new OutageWarning(
      options.log,
      'Redis does not answer: daily caps are treated as reached (offers send to their backups) until it does',
    );
    this.take = this.script('switchyardCapTake', TAKE);
    this.giveBack = this.script('switchyardCapRelease', RELEASE);
    this.increase = this.script('switchyardCapAdd', ADD);
    this.setIfAbsent = this.script('switchyardCapWarm', WARM);
  }

  async tryTake(key: string, day: string, limit: number): Promise<boolean> {
    try {
      return (await this.take(this.keyOf(key, day), limit, expiresAt(day))) === 1;
    } catch (error) {
      this.outage.report(error);
      return false;
    }
  }

  async release(key: string, day: string): Promise<void> {
    try {
      await this.giveBack(this.keyOf(key, day), 0, 0);
    } catch (error) {
      // The unit stays counted: the cap is reached one early at worst.
      this.outage.report(error);
    }
  }

  async add(key: string, day: string, count: number): Promise<void> {
    try {
      await this.increase(this.keyOf(key, day), count, expiresAt(day));
    } catch (error) {
      // The event itself is stored; only this live count misses it until the next start warms it in.
      this.outage.report(error);
    }
  }

  /** At start only: a failure here stops the start, since the node would not know what is spent. */
  async warm(key: string, day: string, count: number): Promise<void> {
    await this.setIfAbsent(this.keyOf(key, day), count, expiresAt(day));
  }

  async count(key: string, day: string): Promise<number> {
    try {
      return Number((await this.client.get(this.keyOf(key, day))) ?? 0);
    } catch (error) {
      this.outage.report(error);
      return Number.POSITIVE_INFINITY;
    }
  }

  /** Fails closed as tryTake does: with Redis silent nothing remains. */
  async remaining(key: string, day: string, limit: number): Promise<number> {
    if (limit <= 0) return Number.POSITIVE_INFINITY;
    return Math.max(0, limit - (await this.count(key, day)));
  }

  private keyOf(key: string, day: string): string {
    return `${this.prefix}${day}:${key}`;
  }

  /** A Lua script sent once and then called by its hash (ioredis resends it if Redis forgot it). */
  private script(name: string, lua: string): Script {
    this.client.defineCommand(name, { numberOfKeys: 1, lua });
    const command = (this.client as unknown as Record<string, Script>)[name];
    if (!command) throw new Error(`ioredis did not define ${name}`);
    return command.bind(this.client);
  }
}

function expiresAt(day: string): number {
  const dayStart = Date.parse(`${day}T00:00:00.000Z`);
  // dayIn always gives YYYY-MM-DD; anything else is kept as long from now.
  return Math.floor((Number.isNaN(dayStart) ? Date.now() : dayStart) / 1000) + KEPT_FOR_SECONDS;
}
