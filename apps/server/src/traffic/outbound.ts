// Outbound postbacks to traffic sources (§3.6 send_to_traffic_source): queued in the
// `outbound_postbacks` table in the same transaction as their conversion, then sent by a worker loop
// with retries and exponential backoff.
//
// What a hard crash can lose or repeat: nothing queued is lost, since a row is committed with its
// conversion before the postback is answered. A row being sent when the process dies has its lease
// (`next_attempt_at` pushed `leaseMs` ahead) run out and is sent again: a traffic source may receive a
// postback twice (at least once, never at most once). The attempt count of that interrupted send is lost.
// Several nodes may run the worker: a row is claimed with a conditional UPDATE, so one node sends it.
//
// A postback whose target is not a public address (outbound-targets.ts) is not sent: it fails at once,
// without retries, its last_error saying why, unless private targets are allowed.
import type { Kysely } from 'kysely';
import { sendOutbound } from '../http/outbound-request.js';
import type { ResolveHost } from '../http/outbound-targets.js';
import type { LiveHub } from '../live/hub.js';
import { postbackEvent } from '../live/messages.js';
import type { Database } from '../store/schema.js';

export interface OutboundLog {
  warn(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

export interface OutboundOptions {
  now?: () => Date;
  /** How often the worker looks for due postbacks; 0 turns the loop off (tests call `processDue`). */
  intervalMs?: number;
  /** Delay before the first retry; doubled each attempt up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Attempts before a postback is given up as failed. */
  maxAttempts?: number;
  /** How long one HTTP request may take. */
  timeoutMs?: number;
  /** How long a claimed row is left to its sender before another run may take it. */
  leaseMs?: number;
  /** Rows sent per run. */
  batchSize?: number;
  /** SWITCHYARD_ALLOW_PRIVATE_TARGETS: send to loopback, private, link-local and multicast addresses too. */
  allowPrivateTargets?: boolean;
  /** How host names are resolved before connecting (tests replace it). */
  resolveHost?: ResolveHost;
}

export const OUTBOUND_DEFAULTS = {
  intervalMs: 1000,
  baseDelayMs: 30_000,
  maxDelayMs: 6 * 60 * 60 * 1000,
  maxAttempts: 10,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  batchSize: 50,
} as const;

/** Delay before attempt `attempts + 1`, after `attempts` failed ones: base · 2^(attempts − 1), capped. */
export function retryDelay(attempts: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

export class OutboundPostbacks {
  private readonly now: () => Date;
  private readonly settings: Required<Omit<OutboundOptions, 'now' | 'resolveHost'>>;
  private readonly resolveHost: ResolveHost | undefined;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: OutboundLog,
    options: OutboundOptions = {},
    private readonly live?: LiveHub,
  ) {
    this.now = options.now ?? (() => new Date());
    this.resolveHost = options.resolveHost;
    this.settings = {
      intervalMs: options.intervalMs ?? OUTBOUND_DEFAULTS.intervalMs,
      baseDelayMs: options.baseDelayMs ?? OUTBOUND_DEFAULTS.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? OUTBOUND_DEFAULTS.maxDelayMs,
      maxAttempts: options.maxAttempts ?? OUTBOUND_DEFAULTS.maxAttempts,
      timeoutMs: options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs,
      leaseMs: options.leaseMs ?? OUTBOUND_DEFAULTS.leaseMs,
      batchSize: options.batchSize ?? OUTBOUND_DEFAULTS.batchSize,
      allowPrivateTargets: options.allowPrivateTargets ?? false,
    };
  }

  start(): void {
    if (this.timer || this.settings.intervalMs <= 0) return;
    this.timer = setInterval(() => this.kick(), this.settings.intervalMs);
    this.timer.unref();
  }

  /** Runs the worker soon (after a new postback was queued), unless the loop is off. */
  kick(): void {
    if (!this.timer) return;
    void this.processDue().catch((error: unknown) => this.log.error({ err: error }, 'outbound postbacks not sent'));
  }

  /** Stops the loop and waits for the run in progress. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** Sends every due postback once; resolves with how many were attempted. One run at a time. */
  processDue(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<number> {
    const now = this.now();
    const due = await this.db
      .selectFrom('outbound_postbacks')
      .leftJoin('conversions', 'conversions.conversion_id', 'outbound_postbacks.conversion_id')
      .select([
        'outbound_postbacks.id',
        'outbound_postbacks.conversion_id',
        'outbound_postbacks.url',
        'outbound_postbacks.attempts',
        'outbound_postbacks.next_attempt_at',
        // For live events: whose postback this is.
        'conversions.workspace_id',
        'conversions.campaign_external_id',
      ])
      .where('outbound_postbacks.state', '=', 'pending')
      .where('outbound_postbacks.next_attempt_at', '<=', now.toISOString())
      .orderBy('outbound_postbacks.next_attempt_at')
      .limit(this.settings.batchSize)
      .execute();
    let attempted = 0;
    for (const row of due) {
      // Claim: push the next attempt a lease ahead, only if no one else did meanwhile.
      const claimed = await this.db
        .updateTable('outbound_postbacks')
        .set({ next_attempt_at: new Date(now.getTime() + this.settings.leaseMs).toISOString() })
        .where('id', '=', row.id)
        .where('state', '=', 'pending')
        .where('next_attempt_at', '=', row.next_attempt_at)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      attempted += 1;
      const { status, error, refused } = await this.send(row.url);
      const attempts = row.attempts + 1;
      const sentAt = this.now();
      const ok = status >= 200 && status < 300;
      const gaveUp = !ok && (refused || attempts >= this.settings.maxAttempts);
      await this.db
        .updateTable('outbound_postbacks')
        .set({
          state: ok ? 'sent' : gaveUp ? 'failed' : 'pending',
          attempts,
          last_status: status,
          last_error: error,
          last_attempt_at: sentAt.toISOString(),
          next_attempt_at: new Date(
            sentAt.getTime() +
              (ok || gaveUp ? 0 : retryDelay(attempts, this.settings.baseDelayMs, this.settings.maxDelayMs)),
          ).toISOString(),
        })
        .where('id', '=', row.id)
        .execute();
      if (gaveUp) this.log.warn({ id: row.id, status, error }, 'outbound postback given up');
      if (this.live?.listening) {
        this.live.publish(
          postbackEvent({
            id: row.id,
            conversionId: row.conversion_id,
            workspaceId: row.workspace_id ?? null,
            campaign: row.campaign_external_id ?? null,
            state: ok ? 'sent' : gaveUp ? 'failed' : 'pending',
            httpStatus: status,
            attempts,
            time: sentAt.toISOString(),
          }),
        );
      }
    }
    return attempted;
  }

  private async send(url: string): Promise<{ status: number; error: string | null; refused: boolean }> {
    const result = await sendOutbound(url, {
      allowPrivateTargets: this.settings.allowPrivateTargets,
      timeoutMs: this.settings.timeoutMs,
      ...(this.resolveHost ? { resolve: this.resolveHost } : {}),
    });
    if (result.kind === 'refused') return { status: 0, error: result.reason, refused: true };
    if (result.kind === 'failed') return { status: 0, error: result.error, refused: false };
    const { status } = result.answer;
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, refused: false };
  }
}
