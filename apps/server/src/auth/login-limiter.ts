import { LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURES_PER_WINDOW } from '@switchyard/domain';

/**
 * Counts failed logins per key (an IP, an account) in a sliding window. In memory for one node; the
 * Redis implementation (redis-login-limiter.ts, when REDIS_URL is set) lets several nodes share the counts.
 */
export interface LoginLimiter {
  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
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
    const recent = this.recent(key, now);
    if (recent.length < this.maxFailures) return 0;
    // Allowed again once the oldest failure that still counts towards the limit leaves the window.
    const oldestCounted = recent[recent.length - this.maxFailures] ?? now;
    return Math.max(1, oldestCounted + this.windowMs - now);
  }

  async recordFailure(key: string): Promise<void> {
    const now = this.now();
    const recent = this.recent(key, now);
    recent.push(now);
    // Only the latest `maxFailures` timestamps can ever decide a block.
    if (recent.length > this.maxFailures) recent.splice(0, recent.length - this.maxFailures);
    this.failures.set(key, recent);
    this.sweep(now);
  }

  /** Keys currently tracked; for tests and metrics. */
  get size(): number {
    return this.failures.size;
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
