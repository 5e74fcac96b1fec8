// What the primary counts for all its workers without Redis (shared-counts.ts asks): the daily caps,
// whether a click is unique when several workers serve one campaign, and the login limits. Each call
// answers as the in-process counter would in a single process.
import { InMemoryLoginLimiter } from '../auth/login-limiter.js';
import { InProcessCapCounters } from '../traffic/rules/caps.js';
import { InMemoryUniqueClicks } from '../traffic/visitor/uniques.js';
import type { PrimaryCall } from './messages.js';

export type CountCall = Extract<PrimaryCall, { op: 'caps' | 'uniques' | 'limiter' }>;

export class HeldCounts {
  private readonly caps = new InProcessCapCounters();
  private readonly uniques = new InMemoryUniqueClicks();
  private readonly limiters = new Map<string, InMemoryLoginLimiter>();

  answer(call: CountCall): Promise<unknown> {
    return call.op === 'caps'
      ? this.capCall(call)
      : call.op === 'uniques'
        ? this.uniqueCall(call)
        : this.limiterCall(call);
  }

  private uniqueCall(call: Extract<PrimaryCall, { op: 'uniques' }>): Promise<unknown> {
    const [keys, now, windowMs] = call.args as [number[], number, number];
    switch (call.method) {
      case 'note':
        return Promise.resolve(this.uniques.note(keys, now, windowMs));
      case 'wouldBe':
        return Promise.resolve(this.uniques.wouldBe(keys, now, windowMs));
      case 'warm':
        return this.uniques.warm(call.args[0] as { keys: number[]; at: number }[]);
      case 'needsWarming':
        return this.uniques.needsWarming();
      default:
        return this.uniques.warmed();
    }
  }

  private capCall(call: Extract<PrimaryCall, { op: 'caps' }>): Promise<unknown> {
    const [key, day, amount] = call.args as [string, string, number];
    switch (call.method) {
      case 'tryTake':
        return this.caps.tryTake(key, day, amount);
      case 'release':
        return this.caps.release(key, day);
      case 'add':
        return this.caps.add(key, day, amount);
      case 'warm':
        return this.caps.warm(key, day, amount);
      case 'count':
        return this.caps.count(key, day);
      case 'remaining':
        return this.caps.remaining(key, day, amount);
    }
  }

  private limiterCall(call: Extract<PrimaryCall, { op: 'limiter' }>): Promise<unknown> {
    let limiter = this.limiters.get(call.name);
    if (!limiter) {
      limiter = new InMemoryLoginLimiter(call.options);
      this.limiters.set(call.name, limiter);
    }
    const [first] = call.args as [never];
    switch (call.method) {
      case 'retryAfterMs':
        return limiter.retryAfterMs(first);
      case 'recordFailure':
        return limiter.recordFailure(first);
      case 'reserve':
        return limiter.reserve(first);
      case 'release':
        return limiter.release(first);
    }
  }
}
