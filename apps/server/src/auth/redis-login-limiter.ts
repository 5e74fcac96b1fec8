import { randomBytes } from 'node:crypto';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';
import type { Redis } from 'ioredis';
import { OutageWarning, REDIS_KEY_PREFIX, type WarningLog } from '../store/redis.js';
import {
  InMemoryLoginLimiter,
  type LoginAttempt,
  type LoginLimiter,
  type LoginLimiterOptions,
  type Reservation,
} from './login-limiter.js';

// Failed logins counted in Redis (REDIS_URL), so a guesser spreading attempts over several nodes meets
// one limit. The same sliding window as InMemoryLoginLimiter: a sorted set per key
// (`switchyard:login:<key>`) whose scores are the failures' times, the latest `maxFailures` kept.

// KEYS[1]: the failures. ARGV: now (ms), window (ms), max failures, a unique member for this failure.
const RECORD = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0`;

// Checks and counts in one script, so that nodes sharing Redis never both see room for one more attempt.
// KEYS: the attempt's keys. ARGV: now (ms), window (ms), max failures, a unique member for this attempt.
// Answers 0 once counted on every key, else the milliseconds to wait (counted on none).
const RESERVE = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local wait = 0
for _, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= max then
    local oldest = redis.call('ZRANGE', key, count - max, count - max, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + window - now, 1)
  end
end
if wait > 0 then return wait end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('ZREMRANGEBYRANK', key, 0, -(max + 1))
  redis.call('PEXPIRE', key, window)
end
return 0`;

type ReserveScript = (...args: (string | number)[]) => Promise<number>;

type RecordScript = (
  key: string,
  now: number,
  windowMs: number,
  maxFailures: number,
  member: string,
) => Promise<number>;

export interface RedisLoginLimiterOptions extends LoginLimiterOptions {
  log: WarningLog;
  /** Start of every key; `switchyard:` unless replaced (tests use one per run). */
  prefix?: string;
}

/**
 * When Redis does not answer, each node limits on its own (an in-memory limiter of the same settings)
 * until it does: logins stay possible for the operator, and a guesser still meets a limit per node.
 */
export class RedisLoginLimiter implements LoginLimiter {
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly prefix: string;
  private readonly record: RecordScript;
  private readonly reserveScript: ReserveScript;
  /** Attempts counted by the in-memory stand-in while Redis was away, released there too. */
  private readonly countedAlone = new WeakSet<LoginAttempt>();
  private readonly alone: InMemoryLoginLimiter;
  private readonly outage: OutageWarning;

  constructor(
    private readonly client: Redis,
    options: RedisLoginLimiterOptions,
  ) {
    this.maxFailures = options.maxFailures ?? LOGIN_FAILURES_PER_WINDOW;
    this.windowMs = options.windowMs ?? LOGIN_FAILURE_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.prefix = `${options.prefix ?? REDIS_KEY_PREFIX}login:`;
    this.alone = new InMemoryLoginLimiter({ maxFailures: this.maxFailures, windowMs: this.windowMs, now: this.now });
    this.outage = new OutageWarning(
      options.log,
      'Redis does not answer: failed logins are limited per node until it does',
    );
    client.defineCommand('switchyardLoginFailure', { numberOfKeys: 1, lua: RECORD });
    const command = (client as unknown as Record<string, RecordScript>).switchyardLoginFailure;
    if (!command) throw new Error('ioredis did not define switchyardLoginFailure');
    this.record = command.bind(client);
    client.defineCommand('switchyardLoginReserve', { lua: RESERVE });
    const reserve = (client as unknown as Record<string, ReserveScript>).switchyardLoginReserve;
    if (!reserve) throw new Error('ioredis did not define switchyardLoginReserve');
    this.reserveScript = reserve.bind(client);
  }

  async retryAfterMs(key: string): Promise<number> {
    const now = this.now();
    let scores: string[];
    try {
      scores = await this.client.zrangebyscore(this.prefix + key, `(${now - this.windowMs}`, '+inf', 'WITHSCORES');
    } catch (error) {
      this.outage.report(error);
      return this.alone.retryAfterMs(key);
    }
    // WITHSCORES answers member, score, member, score…: the times are every second item, oldest first.
    const recent = scores.filter((_, index) => index % 2 === 1).map(Number);
    if (recent.length < this.maxFailures) return 0;
    // Allowed again once the oldest failure that still counts towards the limit leaves the window.
    const oldestCounted = recent[recent.length - this.maxFailures] ?? now;
    return Math.max(1, oldestCounted + this.windowMs - now);
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.now();
    // Two failures in the same millisecond (on two nodes) are two members.
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    try {
      await this.record(this.prefix + key, now, this.windowMs, this.maxFailures, member);
    } catch (error) {
      this.outage.report(error);
      await this.alone.recordFailure(key);
    }
  }

  async reserve(keys: readonly string[]): Promise<Reservation> {
    const now = this.now();
    const attempt: LoginAttempt = {
      keys: [...keys],
      at: now,
      member: `${now}:${randomBytes(6).toString('base64url')}`,
    };
    let wait: number;
    try {
      // No numberOfKeys on the command: the first argument says how many keys follow.
      wait = await this.reserveScript(
        keys.length,
        ...keys.map((key) => this.prefix + key),
        now,
        this.windowMs,
        this.maxFailures,
        attempt.member,
      );
    } catch (error) {
      this.outage.report(error);
      const alone = await this.alone.reserve(keys);
      if (alone.granted) this.countedAlone.add(alone.attempt);
      return alone;
    }
    return wait > 0 ? { granted: false, retryAfterMs: wait } : { granted: true, attempt };
  }

  async release(attempt: LoginAttempt): Promise<void> {
    if (this.countedAlone.has(attempt)) return this.alone.release(attempt);
    try {
      await Promise.all(attempt.keys.map((key) => this.client.zrem(this.prefix + key, attempt.member)));
    } catch (error) {
      // The attempt then counts as a failure until it leaves the window: a lockout can only come sooner.
      this.outage.report(error);
    }
  }
}
