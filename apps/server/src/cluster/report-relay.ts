// The primary's side of reports on SQLite (reports.ts is the workers'): one worker, named here, holds the
// report reader, since DuckDB opens its file for one process only. The others' reports come here and are
// passed on to it; while none holds it (at start, at a reload, after it died) they wait, each at most
// REPORT_WAIT_MS. On PostgreSQL every worker runs its own reports and never asks.
import type { Worker } from 'node:cluster';
import type { PrimaryCall, ToWorker } from './messages.js';

/** A report that waits this long for a worker to run it fails. */
const REPORT_WAIT_MS = 60_000;

interface ReportCall {
  from: Worker;
  id: number;
  call: Extract<PrimaryCall, { op: 'report' }>;
  timer: NodeJS.Timeout;
  /** The worker running it, once passed on. */
  to?: Worker;
}

type Result = { value?: unknown; error?: string };

export class ReportRelay {
  private holder: Worker | null = null;
  private readonly queue: ReportCall[] = [];
  private readonly out = new Map<number, ReportCall>();
  private nextId = 0;
  private stopping = false;

  /**
   * `shared`: whether one worker holds the reader (SQLite); `post` sends a worker a message;
   * `readyWorkers` are those that serve and are not leaving, the first named when none holds it.
   */
  constructor(
    private readonly shared: boolean,
    private readonly post: (worker: Worker, message: ToWorker) => void,
    private readonly readyWorkers: () => Worker[],
  ) {}

  /** A worker's report, passed to the holder now or once there is one. */
  ask(from: Worker, id: number, call: Extract<PrimaryCall, { op: 'report' }>): void {
    if (this.stopping && !this.holder) {
      this.answer(from, id, { error: 'the server is stopping' });
      return;
    }
    const timer = setTimeout(() => {
      const index = this.queue.findIndex((waiting) => waiting.timer === timer);
      if (index >= 0) this.queue.splice(index, 1);
      this.answer(from, id, { error: 'no worker could run the report in time' });
    }, REPORT_WAIT_MS);
    timer.unref();
    this.queue.push({ from, id, call, timer });
    this.pass();
  }

  /** The holder's answer to report `id`, sent to the worker that asked. */
  answered(id: number, result: Result): void {
    const out = this.out.get(id);
    if (!out) return;
    this.out.delete(id);
    this.answer(out.from, out.id, result);
  }

  /** Names a worker to hold the reader when none does (a worker got ready, or the holder let go). */
  hold(): void {
    if (!this.shared || this.holder || this.stopping) return;
    const holder = this.readyWorkers()[0];
    if (!holder) return;
    this.holder = holder;
    this.post(holder, { sy: 'hold-reports' });
    this.pass();
  }

  /** The holder let the reader go (it is leaving): another is named. */
  released(worker: Worker): void {
    if (this.holder === worker) this.holder = null;
    this.hold();
  }

  /** A worker exited: the reports it ran fail, and another holds the reader if it did. */
  gone(worker: Worker): void {
    if (this.holder === worker) this.holder = null;
    for (const [id, out] of this.out) {
      if (out.to !== worker) continue;
      this.out.delete(id);
      this.answer(out.from, out.id, { error: 'the worker running the report stopped' });
    }
    this.hold();
  }

  /** The server is stopping: no worker will be named now, so no waiting report may wait on. */
  stop(): void {
    this.stopping = true;
    for (const waiting of this.queue.splice(0)) {
      clearTimeout(waiting.timer);
      this.answer(waiting.from, waiting.id, { error: 'the server is stopping' });
    }
  }

  private pass(): void {
    const holder = this.holder;
    if (!holder) return;
    for (const waiting of this.queue.splice(0)) {
      clearTimeout(waiting.timer);
      const id = ++this.nextId;
      this.out.set(id, { ...waiting, to: holder });
      this.post(holder, { sy: 'run-report', id, query: waiting.call.query, scope: waiting.call.scope });
    }
  }

  private answer(worker: Worker, id: number, result: Result): void {
    this.post(worker, { sy: 'result', id, ...result });
  }
}
