// Caps and login limits of a worker, counted by its primary (cluster/primary.ts) so that every worker
// of the machine shares one count, exact as a single process's, without Redis. Only a capped offer or
// path, or a login, asks the primary: an uncapped click sends nothing.
import { ACCOUNT_REQUEST_WINDOW_MS, ACCOUNT_REQUESTS_PER_EMAIL, ACCOUNT_REQUESTS_PER_IP } from '@switchyard/domain';
import { AccountLimits } from '../api/accounts/limits.js';
import type { LoginAttempt, LoginLimiter, LoginLimiterOptions, Reservation } from '../auth/login-limiter.js';
import type { CapCounters } from '../traffic/rules/caps.js';
import type { UniqueClicks } from '../traffic/visitor/uniques.js';
import type { PrimaryChannel } from './channel.js';
import type { CapMethod, LimiterMethod, UniqueMethod } from './messages.js';

/**
 * Daily caps counted by the primary. When it does not answer (it is gone) caps fail closed, as Redis's
 * do: a take is refused and a count reads as reached.
 */
export class PrimaryCapCounters implements CapCounters {
  constructor(private readonly primary: PrimaryChannel) {}

  tryTake(key: string, day: string, limit: number): Promise<boolean> {
    return this.ask<boolean>('tryTake', [key, day, limit]).catch(() => false);
  }

  release(key: string, day: string): Promise<void> {
    // Not given back: the cap is reached one early at worst.
    return this.ask<void>('release', [key, day]).catch(() => undefined);
  }

  add(key: string, day: string, count: number): Promise<void> {
    // The event is stored; the next start counts it in.
    return this.ask<void>('add', [key, day, count]).catch(() => undefined);
  }

  /** At start only: a failure stops the start, since the worker would not know what is spent. */
  warm(key: string, day: string, count: number): Promise<void> {
    return this.ask<void>('warm', [key, day, count]);
  }

  count(key: string, day: string): Promise<number> {
    return this.ask<number>('count', [key, day]).catch(() => Number.POSITIVE_INFINITY);
  }

  async remaining(key: string, day: string, limit: number): Promise<number> {
    if (limit <= 0) return Number.POSITIVE_INFINITY;
    // Infinity does not survive JSON: the primary answers null for it.
    return this.ask<number | null>('remaining', [key, day, limit]).then(
      (value) => value ?? Number.POSITIVE_INFINITY,
      () => 0,
    );
  }

  private ask<T>(method: CapMethod, args: (string | number)[]): Promise<T> {
    return this.primary.call<T>({ op: 'caps', method, args });
  }
}

/** A failed-attempt limiter counted by the primary, one per `name` (its options travel with each call). */
export class PrimaryLoginLimiter implements LoginLimiter {
  constructor(
    private readonly primary: PrimaryChannel,
    private readonly name: string,
    private readonly options: Pick<LoginLimiterOptions, 'maxFailures' | 'windowMs'> = {},
  ) {}

  retryAfterMs(key: string): Promise<number> {
    return this.ask<number>('retryAfterMs', [key]);
  }

  recordFailure(key: string): Promise<void> {
    return this.ask<void>('recordFailure', [key]);
  }

  reserve(keys: readonly string[]): Promise<Reservation> {
    return this.ask<Reservation>('reserve', [keys]);
  }

  release(attempt: LoginAttempt): Promise<void> {
    return this.ask<void>('release', [attempt]);
  }

  private ask<T>(method: LimiterMethod, args: unknown[]): Promise<T> {
    return this.primary.call<T>({ op: 'limiter', name: this.name, options: this.options, method, args });
  }
}

/** The account endpoints' per-IP and per-email request limits (api/accounts/limits.ts), counted by the primary. */
export function primaryAccountLimits(primary: PrimaryChannel): AccountLimits {
  const options = { windowMs: ACCOUNT_REQUEST_WINDOW_MS };
  return new AccountLimits(
    new PrimaryLoginLimiter(primary, 'account-ip', { ...options, maxFailures: ACCOUNT_REQUESTS_PER_IP }),
    new PrimaryLoginLimiter(primary, 'account-email', { ...options, maxFailures: ACCOUNT_REQUESTS_PER_EMAIL }),
  );
}

/**
 * Whether a click is unique, decided by the primary for every worker (several workers, no Redis). A primary
 * that does not answer leaves the worker to judge alone: the click counts as unique.
 */
export class PrimaryUniqueClicks implements UniqueClicks {
  constructor(private readonly primary: PrimaryChannel) {}

  note(keys: readonly number[], now: number, windowMs: number): Promise<boolean> {
    return this.ask<boolean>('note', [keys, now, windowMs]).catch(() => true);
  }

  wouldBe(keys: readonly number[], now: number, windowMs: number): Promise<boolean> {
    return this.ask<boolean>('wouldBe', [keys, now, windowMs]).catch(() => true);
  }

  warm(entries: readonly { keys: readonly number[]; at: number; windowMs: number }[], now: number): Promise<void> {
    return this.ask<void>('warm', [entries, now]);
  }

  needsWarming(): Promise<boolean> {
    return this.ask<boolean>('needsWarming', []);
  }

  warmed(): Promise<void> {
    return this.ask<void>('warmed', []);
  }

  private ask<T>(method: UniqueMethod, args: unknown[]): Promise<T> {
    return this.primary.call<T>({ op: 'uniques', method, args });
  }
}
