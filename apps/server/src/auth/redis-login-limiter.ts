import { randomBytes } from 'node:crypto';
import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';
import type { Redis } from 'ioredis';
import { OutageWarning, REDIS_KEY_PREFIX, type WarningLog } from '../store/redis.js';
import { InMemoryLoginLimiter, type LoginLimiter, type LoginLimiterOptions } from './login-limiter.js';

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
}
