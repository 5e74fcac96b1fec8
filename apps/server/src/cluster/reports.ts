// Reports on SQLite under a primary: the report reader (its thread, the columnar store in DuckDB, the
// change-log pruner) is one per instance, since DuckDB opens its file for one process only. The worker
// the primary names holds it; the others hand their reports to the primary, which passes them to that
// worker (and holds them while the reader changes hands at a reload).
import type { ReportResponse, TReportQuery } from '@switchyard/domain';
import type { ReportRunner } from '../reports/runner.js';
import type { ReportScope } from '../reports/service.js';
import type { PrimaryChannel } from './channel.js';

export class SharedReportRunner implements ReportRunner {
  private local: ReportRunner | null = null;
  private released = false;

  constructor(
    private readonly primary: PrimaryChannel,
    private readonly open: () => ReportRunner,
  ) {
    primary.onOrder((order) => {
      if (order.sy === 'hold-reports') this.hold();
      else if (order.sy === 'run-report') {
        this.run(order.query, order.scope).then(
          (response) => primary.send({ sy: 'report-answer', id: order.id, response }),
          (error: unknown) =>
            primary.send({
              sy: 'report-answer',
              id: order.id,
              error: error instanceof Error ? error.message : String(error),
            }),
        );
      }
    });
  }

  /** The report engine's process id while this worker runs it. */
  get pid(): number | null {
    return this.local?.pid ?? null;
  }

  /** Whether this worker runs the reader now. */
  get holding(): boolean {
    return this.local !== null;
  }

  run(query: TReportQuery, scope: ReportScope): Promise<ReportResponse> {
    if (this.local) return this.local.run(query, scope);
    return this.primary.call<ReportResponse>({ op: 'report', query, scope });
  }

  /** Closes the reader here (a worker leaving), so that another worker can open it; tells the primary. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const local = this.local;
    this.local = null;
    await local?.close();
    this.primary.send({ sy: 'reports-released' });
  }

  close(): Promise<void> {
    return this.release();
  }

  private hold(): void {
    if (this.local || this.released) return;
    this.local = this.open();
  }
}
