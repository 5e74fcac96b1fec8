// Read-your-writes across a primary's workers. A worker that saved a record, or that cannot find a click
// another worker may have answered a moment ago, asks the primary to have every other worker settle it:
// recompile its routing, or store the events it holds. The asking request goes on once they all have
// (or after SETTLE_WAIT_MS: a stuck worker must not hold up a save or a postback for long).
import type { Worker } from 'node:cluster';
import type { SettleWhat, ToWorker } from './messages.js';

export const SETTLE_WAIT_MS = 2000;

interface Open {
  waiting: Set<number>;
  finish(): void;
}

/** The primary's side: the settlements asked and the workers each still waits for. */
export class Settlements {
  private nextId = 0;
  private readonly open = new Map<number, Open>();

  constructor(private readonly send: (worker: Worker, message: ToWorker) => void) {}

  /** Resolves once each of `others` said it settled `what`, or one left, or SETTLE_WAIT_MS passed. */
  ask(others: readonly Worker[], what: SettleWhat): Promise<void> {
    if (others.length === 0) return Promise.resolve();
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(), SETTLE_WAIT_MS);
      timer.unref();
      const finish = () => {
        clearTimeout(timer);
        this.open.delete(id);
        resolve();
      };
      this.open.set(id, { waiting: new Set(others.map((worker) => worker.id)), finish });
      for (const worker of others) this.send(worker, { sy: 'settle', id, what });
    });
  }

  settled(worker: Worker, id: number): void {
    const open = this.open.get(id);
    if (!open) return;
    open.waiting.delete(worker.id);
    if (open.waiting.size === 0) open.finish();
  }

  /** A worker that exited settles nothing more. */
  gone(worker: Worker): void {
    for (const open of [...this.open.values()]) {
      if (open.waiting.delete(worker.id) && open.waiting.size === 0) open.finish();
    }
  }
}
