// Click uniqueness shared by every node through Redis (REDIS_URL): one key per campaign and matching
// key hash, `switchyard:uq:<hash>`, holding when it was last seen and expiring a window after it. One Lua
// script reads and notes a click's keys at once, so two nodes taking the same visitor's clicks at the same
// moment can never both call them unique.
import type { Redis } from 'ioredis';
import { OutageWarning, REDIS_KEY_PREFIX, type WarningLog } from '../../store/redis.js';
import { InMemoryUniqueClicks, type UniqueClicks } from './uniques.js';

// KEYS: the click's keys. ARGV[1]: now (ms). ARGV[2]: the window (ms). ARGV[3]: '1' to note, '0' to look.
// A key keeps the later of its time and now, and lives a window past it.
const NOTE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local unique = 1
for _, key in ipairs(KEYS) do
  local last = tonumber(redis.call('GET', key) or '')
  if last and now - last < window then unique = 0 end
  if ARGV[3] == '1' and (not last or now > last) then
    redis.call('SET', key, ARGV[1], 'PX', window)
  end
end
return unique`;

// ARGV[1]: when the stored click was made (ms). ARGV[2]: what remains of its window (ms).
const WARM = `
local at = tonumber(ARGV[1])
for _, key in ipairs(KEYS) do
  local last = tonumber(redis.call('GET', key) or '')
  if not last or at > last then redis.call('SET', key, ARGV[1], 'PX', ARGV[2]) end
end
return 0`;

type Script = (count: number, ...args: (string | number)[]) => Promise<number>;

const WARM_BATCH = 1000;

/**
 * Uniqueness in Redis. When Redis does not answer, this node answers from what it noted itself during
 * the outage (a click is not refused over it: uniqueness is a figure, not money), and says so in the log.
 */
export class RedisUniqueClicks implements UniqueClicks {
  private readonly prefix: string;
  private readonly outage: OutageWarning;
  private readonly fallback = new InMemoryUniqueClicks();
  private readonly noteScript: Script;

  constructor(
    private readonly client: Redis,
    options: { log: WarningLog; prefix?: string },
  ) {
    this.prefix = `${options.prefix ?? REDIS_KEY_PREFIX}uq:`;
    this.outage = new OutageWarning(
      options.log,
      'Redis does not answer: click uniqueness is judged by this node alone until it does',
    );
    this.noteScript = this.script('switchyardUniqueNote', NOTE);
    // Called through pipelines in warm().
    this.script('switchyardUniqueWarm', WARM);
  }

  async note(keys: readonly number[], now: number, windowMs: number): Promise<boolean> {
    try {
      return (await this.noteScript(keys.length, ...this.keysOf(keys), now, windowMs, '1')) === 1;
    } catch (error) {
      this.outage.report(error);
      return this.fallback.note(keys, now, windowMs);
    }
  }

  async wouldBe(keys: readonly number[], now: number, windowMs: number): Promise<boolean> {
    try {
      return (await this.noteScript(keys.length, ...this.keysOf(keys), now, windowMs, '0')) === 1;
    } catch (error) {
      this.outage.report(error);
      return this.fallback.wouldBe(keys, now, windowMs);
    }
  }

  /** At start only (or after a resync found Redis emptied); a failure stops the start, as caps' warm does. */
  async warm(
    entries: readonly { keys: readonly number[]; at: number; windowMs: number }[],
    now: number,
  ): Promise<void> {
    for (let start = 0; start < entries.length; start += WARM_BATCH) {
      const pipeline = this.client.pipeline();
      for (const { keys, at, windowMs } of entries.slice(start, start + WARM_BATCH)) {
        const left = at + windowMs - now;
        if (left <= 0) continue;
        (pipeline as unknown as Record<string, (...args: unknown[]) => void>).switchyardUniqueWarm!(
          keys.length,
          ...this.keysOf(keys),
          at,
          left,
        );
      }
      const results = await pipeline.exec();
      const failed = results?.find(([error]) => error);
      if (failed) throw failed[0];
    }
  }

  /** Redis holds a mark once some node warmed it; an emptied or new Redis has none. */
  async needsWarming(): Promise<boolean> {
    return (await this.client.exists(`${this.prefix}warmed`)) === 0;
  }

  async warmed(): Promise<void> {
    await this.client.set(`${this.prefix}warmed`, '1');
  }

  private keysOf(keys: readonly number[]): string[] {
    return keys.map((key) => `${this.prefix}${key.toString(36)}`);
  }

  private script(name: string, lua: string): Script {
    // Without numberOfKeys, ioredis takes the number of keys as the first argument of each call.
    this.client.defineCommand(name, { lua });
    const command = (this.client as unknown as Record<string, Script>)[name];
    if (!command) throw new Error(`ioredis did not define ${name}`);
    return command.bind(this.client);
  }
}
