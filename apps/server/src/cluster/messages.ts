// What the primary (primary.ts) and its click-serving workers (worker.ts) say to each other over the
// cluster's IPC channel. Every message carries `sy`, so that anything else on the channel is ignored.
import type { ReportResponse, TReportQuery } from '@switchyard/domain';
import type { ReportScope } from '../reports/service.js';

/** A call a worker makes of the primary: caps, login limits and forwarded reports. */
export type PrimaryCall =
  | { op: 'caps'; method: CapMethod; args: (string | number)[] }
  | {
      op: 'limiter';
      name: string;
      options: { maxFailures?: number; windowMs?: number };
      method: LimiterMethod;
      args: unknown[];
    }
  | { op: 'report'; query: TReportQuery; scope: ReportScope }
  | { op: 'uniques'; method: UniqueMethod; args: unknown[] }
  /** Have every other worker settle `what` (settle.ts); answered once they have. */
  | { op: 'settle'; what: SettleWhat };

/** What the other workers settle: a saved record of `record`'s kind, or the events they hold. */
export type SettleWhat = { kind: 'config'; record: string } | { kind: 'events' };

export type UniqueMethod = 'note' | 'wouldBe' | 'warm' | 'needsWarming' | 'warmed';

export type CapMethod = 'tryTake' | 'release' | 'add' | 'warm' | 'count' | 'remaining';
export type LimiterMethod = 'retryAfterMs' | 'recordFailure' | 'reserve' | 'release';

export type ToPrimary =
  | { sy: 'call'; id: number; call: PrimaryCall }
  /** A message for every other worker on `channel` (config changes, live events). */
  | { sy: 'bus'; channel: string; text: string }
  /** Started, listening, and routing: the primary may now drain the workers it replaces. */
  | { sy: 'ready' }
  /** The report reader is closed here (a worker told to drain): another worker may open it. */
  | { sy: 'reports-released' }
  /** The answer to a `run-report` the primary forwarded. */
  | { sy: 'report-answer'; id: number; response?: ReportResponse; error?: string }
  /** Done with the primary's `settle` of this id. */
  | { sy: 'settled'; id: number };

export type ToWorker =
  | { sy: 'result'; id: number; value?: unknown; error?: string }
  | { sy: 'bus'; channel: string; text: string }
  /**
   * Stop taking connections, answer what is open, store every event, exit. `reload`: other workers
   * take over, so kept-alive connections get a few seconds to close after an answer of theirs.
   */
  | { sy: 'drain'; reload: boolean }
  /** Run the instance-wide singletons here (on SQLite: the report reader and its columnar store). */
  | { sy: 'hold-reports' }
  | { sy: 'run-report'; id: number; query: TReportQuery; scope: ReportScope }
  /** Another worker asks this one to settle `what`; answered with `settled`. */
  | { sy: 'settle'; id: number; what: SettleWhat };

/**
 * Messages of one event-loop turn travel as one (a busy worker's cap calls, the primary's answers):
 * one write and one parse per turn instead of one per message.
 */
export interface Batch<T> {
  sy: 'batch';
  messages: T[];
}

export function isToPrimary(message: unknown): message is ToPrimary {
  return typeof message === 'object' && message !== null && typeof (message as { sy?: unknown }).sy === 'string';
}

export const isToWorker = isToPrimary as (message: unknown) => message is ToWorker;

export function isBatch(message: unknown): message is Batch<never> {
  return isToPrimary(message) && message.sy === ('batch' as string);
}
