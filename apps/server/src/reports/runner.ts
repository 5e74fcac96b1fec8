// Where reports run: in the report engine, a child process at a lower scheduling priority
// (reports/engine-child.ts) with its own connections, on SQLite and on PostgreSQL alike. The server's
// event loop, which answers the clicks, only queues a report and receives its answer: a report over
// millions of events never holds up a click. Reports wait in a bounded queue; one that cannot wait
// (queue full) or waited too long answers 503 with Retry-After. The engine is started at once, kept
// across reports, started again when it dies, and closed with the server.
import type { ChildProcess } from 'node:child_process';
import { ERROR_MESSAGES, type ReportResponse, type TReportQuery } from '@switchyard/domain';
import { forkModule } from '../child-process.js';
import { ServiceUnavailableError } from '../errors.js';
import type { ReportEngineLimits } from '../report-engine-limits.js';
import type { ColumnarReader } from '../report-plan/columnar-reader.js';
import { SQLITE_BUSY_TIMEOUT_MS, type Store } from '../store/database.js';
import type { EngineDatabase, EngineSettings, FromEngine, ToEngine } from './engine-protocol.js';
import type { ReportScope } from './service.js';

export interface ReportRunner {
  run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse>;
  close(): Promise<void>;
  /** The engine's process id now (tests stop or kill it); null while none runs. */
  readonly pid: number | null;
}

/** How long a closing engine has to finish before it is killed. */
const CLOSE_TIMEOUT_MS = 10_000;
/** Waits before starting an engine again after it died: growing while it dies at start. */
const RESTART_DELAYS_MS = [0, 250, 1000, 5000];

/**
 * On SQLite, the embedded columnar store lives beside the database file (`switchyard.db` →
 * `switchyard.columnar.duckdb`), and the engine opens it at once, so that it catches up at start.
 */
export function reportRunner(
  store: Store,
  limits: ReportEngineLimits,
  databaseUrl: string | undefined,
  log: (message: string) => void = () => undefined,
  /** PostgreSQL with CLICKHOUSE_URL: the node's ClickHouse (columnar/clickhouse-node.ts) and its URL. */
  clickhouse?: { url: string; reader: ColumnarReader },
): ReportRunner {
  let database: EngineDatabase;
  if (store.sqlite) {
    const file = store.sqlite.name;
    database = { kind: 'sqlite', file, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, columnarFile: columnarFileOf(file) };
  } else {
    if (!databaseUrl) throw new Error('the report engine needs DATABASE_URL on PostgreSQL');
    database = { kind: 'postgres', url: databaseUrl, clickhouseUrl: clickhouse?.url ?? null };
  }
  const engine = new ReportEngine(database, limits, log, clickhouse?.reader ?? null);
  engine.start();
  return engine;
}

export function columnarFileOf(sqliteFile: string): string {
  return `${sqliteFile.replace(/\.db$/, '')}.columnar.duckdb`;
}

interface Job {
  id: number;
  query: TReportQuery;
  scope: ReportScope;
  resolve(response: ReportResponse): void;
  reject(error: Error): void;
  /** Answers 503 when the job is still waiting at the wait limit. */
  timer: NodeJS.Timeout | null;
}

class ReportEngine implements ReportRunner {
  private child: ChildProcess | null = null;
  /** Whether the running child said it is ready; jobs are sent to it only then. */
  private ready = false;
  private readonly waiting: Job[] = [];
  private readonly running = new Map<number, Job>();
  private nextId = 0;
  private closed = false;
  private exited: Promise<void> = Promise.resolve();
  /** Deaths in a row without a report answered: how long to wait before the next start. */
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Recent reports' durations, for Retry-After. */
  private averageMs = 1000;

  constructor(
    private readonly database: EngineDatabase,
    private readonly limits: ReportEngineLimits,
    private readonly log: (message: string) => void,
    private readonly columnar: ColumnarReader | null,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): void {
    if (this.closed || this.child) return;
    const settings: EngineSettings = {
      database: this.database,
      concurrency: this.limits.concurrency,
      threads: this.limits.threads,
      nice: this.limits.nice,
    };
    const child = forkModule(import.meta.url, 'engine-child', {
      ...process.env,
      SWITCHYARD_REPORT_ENGINE: JSON.stringify(settings),
      UV_THREADPOOL_SIZE: String(this.limits.threads),
    });
    this.child = child;
    this.ready = false;
    // An idle engine does not keep the server's process alive; one with work does.
    child.unref();
    child.channel?.unref();
    child.on('message', (message: FromEngine) => this.received(child, message));
    child.on('error', (error) => this.log(`the report engine: ${error.message}`));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.stopped(child, code, signal);
        resolve();
      });
    });
  }

  run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    if (this.closed) return Promise.reject(this.busy());
    // Full: the report is refused at once rather than waiting behind more than the queue holds.
    const full = this.running.size >= this.limits.concurrency || !this.ready;
    if (full && this.waiting.length >= this.limits.queue) return Promise.reject(this.busy());
    return new Promise((resolve, reject) => {
      const job: Job = { id: ++this.nextId, query, scope, resolve, reject, timer: null };
      job.timer = setTimeout(() => {
        const index = this.waiting.indexOf(job);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        job.reject(this.busy());
      }, this.limits.waitMs);
      job.timer.unref();
      this.waiting.push(job);
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    for (const job of this.waiting.splice(0)) {
      if (job.timer) clearTimeout(job.timer);
      job.reject(this.busy());
    }
    const child = this.child;
    if (!child) return;
    const killer = setTimeout(() => child.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
    if (child.connected) child.send({ type: 'close' } satisfies ToEngine);
    else child.kill('SIGKILL');
    await this.exited;
    clearTimeout(killer);
  }

  /** 503 with when to ask again: about the time the reports ahead take, between 1 s and a minute. */
  private busy(): ServiceUnavailableError {
    const ahead = (this.waiting.length + this.running.size) / this.limits.concurrency;
    const seconds = Math.min(60, Math.max(1, Math.ceil((ahead * this.averageMs) / 1000)));
    return new ServiceUnavailableError(ERROR_MESSAGES.reportsBusy, seconds);
  }

  /** Sends waiting reports to the engine while it runs fewer than it may. */
  private pump(): void {
    const child = this.child;
    if (!child || !this.ready) return;
    while (this.running.size < this.limits.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      if (job.timer) clearTimeout(job.timer);
      this.running.set(job.id, job);
      const started = performance.now();
      const finish = job.resolve;
      job.resolve = (response) => {
        this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
        finish(response);
      };
      // Working: the engine keeps the server's process up until it answers.
      child.ref();
      child.channel?.ref();
      child.send({
        type: 'run',
        id: job.id,
        query: job.query,
        scope: job.scope,
        columnarReady: this.columnar?.ready ?? false,
      } satisfies ToEngine);
    }
  }

  private received(child: ChildProcess, message: FromEngine): void {
    if (message.type === 'log') {
      this.log(message.message);
      return;
    }
    if (message.type === 'ready') {
      this.ready = true;
      this.pump();
      return;
    }
    if (message.type === 'catchUp') {
      const caughtUp = this.columnar ? this.columnar.catchUp() : Promise.resolve();
      caughtUp.then(
        () => this.reply(child, { type: 'caughtUp', id: message.id, error: null }),
        (error: unknown) => this.reply(child, { type: 'caughtUp', id: message.id, error: String(error) }),
      );
      return;
    }
    const job = this.running.get(message.id);
    if (!job) return;
    this.running.delete(message.id);
    this.idleIfDone(child);
    this.failures = 0;
    if (message.type === 'answer') job.resolve(message.response);
    else job.reject(new Error(`report failed: ${message.message}`));
    this.pump();
  }

  private reply(child: ChildProcess, message: ToEngine): void {
    if (child.connected) child.send(message);
  }

  private idleIfDone(child: ChildProcess): void {
    if (this.running.size > 0) return;
    child.unref();
    child.channel?.unref();
  }

  /**
   * The engine exited: the reports it was running answer 503 (asked again, they run in the next one), and
   * another engine starts unless the server is closing.
   */
  private stopped(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = false;
    for (const job of this.running.values()) job.reject(this.busy());
    this.running.clear();
    if (this.closed) return;
    this.log(`the report engine stopped (${signal ?? code}); starting another`);
    const delay = RESTART_DELAYS_MS[Math.min(this.failures, RESTART_DELAYS_MS.length - 1)]!;
    this.failures += 1;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.start();
    }, delay);
    this.restartTimer.unref();
  }
}
