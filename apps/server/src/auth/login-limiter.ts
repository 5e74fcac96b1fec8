import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';

/** An attempt counted by `reserve`, on every one of its keys, until it is released. */
export interface LoginAttempt {
  readonly keys: readonly string[];
  /** When it was counted (the limiter's clock). */
  readonly at: number;
  /** Tells it apart from other attempts counted at the same moment (Redis keeps one member per attempt). */
  readonly member: string;
}

/** What `reserve` answers: the attempt it counted, or how long to wait when it counted nothing. */
export type Reservation = { granted: true; attempt: LoginAttempt } | { granted: false; retryAfterMs: number };

/**
 * Counts failed logins per key (an IP, an account) in a sliding window. In memory for one node; the
 * Redis implementation (redis-login-limiter.ts, when REDIS_URL is set) lets several nodes share the counts.
 *
 * An attempt is counted before its password is checked (`reserve`), and given back only when it turns
 * out to be right (`release`): parallel guesses can then never get more checks than the limit.
 */
export interface LoginLimiter {
  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  /** Counts one attempt on every key, in one step: all of them, or none when one is at its limit. */
  reserve(keys: readonly string[]): Promise<Reservation>;
  /** Takes back an attempt that succeeded; what succeeded is not a failure. */
  release(attempt: LoginAttempt): Promise<void>;
}

export interface LoginLimiterOptions {
  maxFailures?: number;
  windowMs?: number;
  now?: () => number;
}

export class InMemoryLoginLimiter implements LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly maxFailures: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private lastSweep: number;

  constructor(options: LoginLimiterOptions = {}) {
    this.maxFailures = options.maxFailures ?? LOGIN_FAILURES_PER_WINDOW;
    this.windowMs = options.windowMs ?? LOGIN_FAILURE_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.lastSweep = this.now();
  }

  async retryAfterMs(key: string): Promise<number> {
    const now = this.now();
    return this.waitFor(this.recent(key, now), now);
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.now();
    this.add(key, now);
    this.sweep(now);
  }

  async reserve(keys: readonly string[]): Promise<Reservation> {
    // No await between the check and the count: two requests on this node cannot both see room for one.
    const now = this.now();
    const wait = Math.max(0, ...keys.map((key) => this.waitFor(this.recent(key, now), now)));
    if (wait > 0) return { granted: false, retryAfterMs: wait };
    for (const key of keys) this.add(key, now);
    this.sweep(now);
    return { granted: true, attempt: { keys: [...keys], at: now, member: String(now) } };
  }

  async release(attempt: LoginAttempt): Promise<void> {
    for (const key of attempt.keys) {
      const timestamps = this.failures.get(key);
      // Attempts counted at the same millisecond are interchangeable: any one of them goes.
      const index = timestamps?.lastIndexOf(attempt.at) ?? -1;
      if (timestamps && index !== -1) timestamps.splice(index, 1);
    }
  }

  /** Keys currently tracked; for tests and metrics. */
  get size(): number {
    return this.failures.size;
  }

  private waitFor(recent: number[], now: number): number {
    if (recent.length < this.maxFailures) return 0;
    // Allowed again once the oldest failure that still counts towards the limit leaves the window.
    const oldestCounted = recent[recent.length - this.maxFailures] ?? now;
    return Math.max(1, oldestCounted + this.windowMs - now);
  }

  private add(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    // Only the latest `maxFailures` timestamps can ever decide a block.
    if (recent.length > this.maxFailures) recent.splice(0, recent.length - this.maxFailures);
    this.failures.set(key, recent);
  }

  private recent(key: string, now: number): number[] {
    const timestamps = this.failures.get(key);
    if (!timestamps) return [];
    const recent = timestamps.filter((time) => time > now - this.windowMs);
    if (recent.length === 0) this.failures.delete(key);
    else if (recent.length !== timestamps.length) this.failures.set(key, recent);
    return recent;
  }

  /** Forget keys whose failures have all left the window, at most once per window. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const key of [...this.failures.keys()]) this.recent(key, now);
  }
}
