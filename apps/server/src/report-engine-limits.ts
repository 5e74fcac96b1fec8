// How much the report engine (a child process, reports/engine-child.ts) may take, from the environment.
import { availableParallelism } from 'node:os';

export interface ReportEngineLimits {
  /** Reports run at once (SWITCHYARD_REPORT_CONCURRENCY, default 2). */
  concurrency: number;
  /** Reports waiting for one of those at most; one more answers 503 (SWITCHYARD_REPORT_QUEUE, default 16). */
  queue: number;
  /** How long a report waits to start before it answers 503 (SWITCHYARD_REPORT_WAIT_MS, default 30 s). */
  waitMs: number;
  /** DuckDB's threads and the engine's libuv pool (SWITCHYARD_REPORT_THREADS, default the cores, at most 4). */
  threads: number;
  /** The engine's nice value, 0–19 (SWITCHYARD_REPORT_NICE, default 10): clicks are served first. */
  nice: number;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

export function reportEngineLimits(env: NodeJS.ProcessEnv): ReportEngineLimits {
  return {
    concurrency: whole(env, 'SWITCHYARD_REPORT_CONCURRENCY', 2, 1, 32),
    queue: whole(env, 'SWITCHYARD_REPORT_QUEUE', 16, 0, 10_000),
    waitMs: whole(env, 'SWITCHYARD_REPORT_WAIT_MS', 30_000, 0, 3_600_000),
    threads: whole(env, 'SWITCHYARD_REPORT_THREADS', Math.min(4, availableParallelism()), 1, 256),
    nice: whole(env, 'SWITCHYARD_REPORT_NICE', 10, 0, 19),
  };
}
