// The primary process (`npm start`): it holds the listening socket (node:cluster) and runs the
// click-serving workers (worker.ts), each the whole server. It owns what they must share without Redis:
// the daily caps, unique clicks and login limits (held-counts.ts), the bus for config changes and live
// events, and, on SQLite, which worker runs the report reader (report-relay.ts).
//
// SIGHUP (`npm run reload`) starts a new set of workers on the code now on disk, waits until each has
// started and listens, and only then drains the old ones: the socket never closes, so no connection is
// refused. A worker that dies is replaced (its journal replayed by the next to start, journal.ts claims),
// with a growing delay when workers keep dying.
import cluster, { type Worker } from 'node:cluster';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { type Config, databaseDialect } from '../config.js';
import { HeldCounts } from './held-counts.js';
import { type Batch, isBatch, isToPrimary, type PrimaryCall, type ToPrimary, type ToWorker } from './messages.js';
import { ReportRelay } from './report-relay.js';
import { Settlements } from './settle.js';

/** The primary's process id is written here, in the data directory (`npm run reload` reads it). */
export const PID_FILE_NAME = 'switchyard.pid';
/** A leaving worker that has not exited by then is killed (its journal keeps what it answered). */
const DRAIN_TIMEOUT_MS = 60_000;
const RESTART_MIN_MS = 100;
const RESTART_MAX_MS = 30_000;
const CRASH_WINDOW_MS = 60_000;

/** Workers by default: one a core, at most this many (each is a whole server, with its own memory). */
const DEFAULT_WORKERS_MAX = 8;

/**
 * V8's young generation in each worker. A click allocates about 24 KB, nearly all dead by its answer, and
 * at the default size (16 MB) the young generation was collected ten times a second at 6,000 clicks/s,
 * the longest pauses 12–15 ms; at 64 MB four times less often, the longest 5–9 ms, for about 100 MB more
 * a worker (bench/README.md). An operator's own setting, on the command line or in NODE_OPTIONS, is kept.
 */
const YOUNG_GENERATION_FLAG = '--max-semi-space-size=64';

/** The workers' Node flags: the primary's own, and the young generation's size unless set already. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const set = [...execArgv, nodeOptions].some((flags) => /--max[-_]semi[-_]space[-_]size/.test(flags));
  return set ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}

/**
 * SWITCHYARD_WORKERS: the click-serving workers; by default one a core, up to 8. A save, and a click
 * another worker answered, are seen by every worker before their answer goes out (settle.ts).
 */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return Math.min(DEFAULT_WORKERS_MAX, os.availableParallelism());
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 256) {
    throw new Error(`SWITCHYARD_WORKERS must be a whole number of workers from 1 to 256, not "${value}"`);
  }
  return count;
}

interface Running {
  worker: Worker;
  ready: boolean;
  leaving: boolean;
  /** The first of a set: if it dies before it is ready, its start or reload fails (no replacement). */
  first: boolean;
}

export async function runPrimary(config: Config, count: number): Promise<void> {
  // Each worker accepts on the shared socket itself. Round-robin hands each connection from the primary
  // to a worker, and a connection handed to a worker that was leaving or killed at that moment stayed in
  // the primary, its request never answered (seen under load in the reload test). Left in the socket's
  // queue, a connection is taken by whichever worker accepts next.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  const log = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const primary = new Primary(config, count, log);
  const pidFile = path.join(config.dataDir, PID_FILE_NAME);
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(pidFile, `${process.pid}\n`);
  const removePidFile = () => {
    try {
      if (fs.readFileSync(pidFile, 'utf8').trim() === String(process.pid)) fs.rmSync(pidFile);
    } catch {
      // Gone already.
    }
  };
  process.on('exit', removePidFile);
  process.on('SIGHUP', () => void primary.reload());
  const stop = (signal: string) => void primary.shutdown(signal).then(() => process.exit(0));
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  try {
    await primary.start();
  } catch (error) {
    log.error({ err: error }, 'Switchyard cannot start');
    await primary.shutdown('failed start');
    process.exit(1);
  }
  log.info({ workers: count, pid: process.pid, pidFile }, 'primary ready: SIGHUP (npm run reload) reloads the workers');
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
  log.info(`Switchyard is listening on http://${host}:${config.port}`);
}

class Primary {
  private readonly running = new Map<number, Running>();
  private readonly counts = new HeldCounts();
  private readonly reports: ReportRelay;
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private stopping = false;
  private readonly crashes: number[] = [];
  private readonly settlements = new Settlements((worker, message) => this.send(worker, message));

  constructor(
    config: Config,
    private readonly count: number,
    private readonly log: pino.Logger,
  ) {
    this.reports = new ReportRelay(
      databaseDialect(config) === 'sqlite',
      (worker, message) => this.send(worker, message),
      () => this.readyWorkers(),
    );
    cluster.on('message', (worker, message: unknown) => {
      if (isBatch(message)) {
        for (const one of (message as Batch<ToPrimary>).messages) this.onMessage(worker, one);
      } else if (isToPrimary(message)) this.onMessage(worker, message);
    });
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
  }

  /**
   * The first worker alone (it migrates the database, creates the first administrator, replays every
   * journal segment left, and warms the caps), then the others.
   */
  async start(): Promise<void> {
    await this.startSet();
  }

  /** A new set of workers on the code now on disk; the old ones drain once every new one is ready. */
  reload(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      const old = [...this.running.values()].filter((entry) => !entry.leaving);
      this.log.info({ workers: this.count, old: old.length }, 'reloading: starting new workers');
      try {
        await this.startSet();
      } catch (error) {
        this.log.error({ err: error }, 'reload failed: the new workers did not start; the running ones stay');
        return;
      }
      this.log.info({ draining: old.length }, 'reloaded: new workers answer; draining the old ones');
      await Promise.all(old.map((entry) => this.drain(entry, true)));
    })().finally(() => {
      this.reloading = null;
      if (this.reloadAgain) {
        this.reloadAgain = false;
        void this.reload();
      }
    });
    return this.reloading;
  }

  async shutdown(reason: string): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.log.info({ reason }, 'shutting down: draining every worker');
    // No worker will be named to run them now: a leaving worker's job waiting on one must not wait on.
    this.reports.stop();
    await Promise.all([...this.running.values()].map((entry) => this.drain(entry, false)));
  }

  private async startSet(): Promise<void> {
    const first = this.fork(true);
    try {
      await this.readyOf(first);
    } catch (error) {
      // A first worker that fails ends a start or a reload; the ones it would replace stay.
      this.running.delete(first.id);
      throw error;
    }
    const others = Array.from({ length: this.count - 1 }, () => this.fork());
    // One of these that dies before it is ready is replaced like any worker that dies.
    await Promise.allSettled(others.map((worker) => this.readyOf(worker)));
  }

  private fork(first = false): Worker {
    const worker = cluster.fork();
    this.running.set(worker.id, { worker, ready: false, leaving: false, first });
    return worker;
  }

  private readyOf(worker: Worker): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        const messages = isBatch(message) ? (message as Batch<ToPrimary>).messages : [message];
        if (!messages.some((one) => isToPrimary(one) && one.sy === 'ready')) return;
        cleanup();
        resolve();
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(new Error(`worker ${worker.process.pid} exited before it was ready (${signal ?? code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('exit', onExit);
    });
  }

  private drain(entry: Running, reload: boolean): Promise<void> {
    const { worker } = entry;
    if (worker.isDead()) return Promise.resolve();
    entry.leaving = true;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.log.warn({ pid: worker.process.pid }, 'worker did not leave in time: killed (its journal is replayed)');
        worker.process.kill('SIGKILL');
      }, DRAIN_TIMEOUT_MS);
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.send(worker, { sy: 'drain', reload });
    });
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const entry = this.running.get(worker.id);
    this.running.delete(worker.id);
    this.settlements.gone(worker);
    this.reports.gone(worker);
    if (!entry || entry.leaving || this.stopping) return;
    // Died unasked. A first worker that never got ready is its start's (or reload's) to report.
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length > 0 && this.crashes[0]! < now - CRASH_WINDOW_MS) this.crashes.shift();
    const delay = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** (this.crashes.length - 1));
    this.log.error(
      { pid: worker.process.pid, code, signal, restartInMs: delay },
      'worker died: a new one starts and replays its journal',
    );
    if (!entry.ready && entry.first) return;
    setTimeout(() => {
      if (this.stopping) return;
      const replacement = this.fork();
      this.readyOf(replacement).catch(() => undefined);
    }, delay).unref();
  }

  private onMessage(worker: Worker, message: ToPrimary): void {
    switch (message.sy) {
      case 'ready': {
        const entry = this.running.get(worker.id);
        if (entry) entry.ready = true;
        this.log.info({ worker: worker.process.pid }, 'worker ready');
        this.reports.hold();
        return;
      }
      case 'bus':
        for (const entry of this.running.values()) {
          if (entry.worker !== worker) this.send(entry.worker, message);
        }
        return;
      case 'reports-released':
        this.reports.released(worker);
        return;
      case 'report-answer':
        this.reports.answered(
          message.id,
          message.error !== undefined ? { error: message.error } : { value: message.response },
        );
        return;
      case 'call':
        this.call(worker, message.id, message.call);
        return;
      case 'settled':
        this.settlements.settled(worker, message.id);
        return;
    }
  }

  private call(worker: Worker, id: number, call: PrimaryCall): void {
    if (call.op === 'report') {
      this.reports.ask(worker, id, call);
      return;
    }
    if (call.op === 'settle') {
      // The workers that serve: the others of the set, and a new set's while a reload starts it.
      const others = [...this.running.values()]
        .filter((entry) => entry.worker !== worker && entry.ready && !entry.leaving)
        .map((entry) => entry.worker);
      void this.settlements.ask(others, call.what).then(() => this.answer(worker, id, { value: null }));
      return;
    }
    let result: Promise<unknown>;
    try {
      result = this.counts.answer(call);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      // Infinity (no limit) does not survive JSON: null stands for it.
      (value) => this.answer(worker, id, { value: value === Number.POSITIVE_INFINITY ? null : value }),
      (error: unknown) => this.answer(worker, id, { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  private readyWorkers(): Worker[] {
    return [...this.running.values()]
      .filter((entry) => entry.ready && !entry.leaving && !entry.worker.isDead())
      .map((entry) => entry.worker);
  }

  private answer(worker: Worker, id: number, result: { value?: unknown; error?: string }): void {
    this.send(worker, { sy: 'result', id, ...result });
  }

  /** Sent at the end of this event-loop turn, with the turn's other messages to `worker`. */
  private send(worker: Worker, message: ToWorker): void {
    let box = this.outboxes.get(worker);
    if (!box) {
      box = [];
      this.outboxes.set(worker, box);
      setImmediate(() => this.flush(worker));
    }
    box.push(message);
  }

  private readonly outboxes = new Map<Worker, ToWorker[]>();

  private flush(worker: Worker): void {
    const messages = this.outboxes.get(worker) ?? [];
    this.outboxes.delete(worker);
    if (!worker.isConnected() || messages.length === 0) return;
    const batch: Batch<ToWorker> | ToWorker = messages.length === 1 ? messages[0]! : { sy: 'batch', messages };
    worker.send(batch, undefined, (error: Error | null) => {
      if (error && !worker.isDead()) this.log.warn({ err: error, pid: worker.process.pid }, 'message to a worker lost');
    });
  }
}
