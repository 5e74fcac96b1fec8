// The statements a postback's conversion needs, each kept to the conversion's workspace (store/scope.ts):
// the conversion's row by its key, its log line, its outbound postback and its click's cost. What they
// amount to is decided in move-conversion.ts; this file only reads and writes, inside one transaction.
import type { Kysely, Transaction } from 'kysely';
import type { DatabaseDialect } from '../config.js';
import type { NewConversion, NewPostbackLog } from '../store/conversions.js';
import { type ConversionCost, moveClickCost } from '../store/cost-models.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';

/** A conversion as a postback reaches it: the row keyed by its click (or lead), event and txid. */
export type IncomingConversion = NewConversion & {
  workspace_id: number;
  state: string;
  event_key: string;
  txid_key: string;
};

/** What a later postback reads of the conversion its key already names. */
export interface FoundConversion {
  conversion_id: string;
  state: string;
  cost: number;
  payout: number;
  is_conversion: number;
}

/** An outbound postback to queue with its conversion. */
export interface NewOutbound {
  url: string;
  createdAt: string;
}

export class ConversionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** Runs `work` in one transaction within `workspaceId`: a conversion, its log and its costs commit together. */
  transaction<T>(workspaceId: number, work: (tx: ConversionTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ConversionTransaction(trx, this.dialect, workspaceId)));
  }
}

export class ConversionTransaction {
  constructor(
    private readonly trx: Transaction<Database>,
    private readonly dialect: DatabaseDialect,
    private readonly workspaceId: number,
  ) {}

  /** Stores the conversion unless its key is taken; answers whether it was stored. */
  async insertNew(conversion: IncomingConversion, cost: number): Promise<boolean> {
    const inserted = await this.trx
      .insertInto('conversions')
      .values({ ...conversion, workspace_id: this.workspaceId, cost })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * The conversion stored under the key of `conversion`. On PostgreSQL its row stays locked until the
   * commit, so parallel postbacks of one conversion move it one after the other (SQLite writes one at a time).
   */
  async findByKey(conversion: IncomingConversion): Promise<FoundConversion> {
    let query = this.trx
      .selectFrom('conversions')
      .select(['conversion_id', 'state', 'cost', 'payout', 'is_conversion'])
      .where(scopeCondition({ workspaceId: this.workspaceId }, 'workspace_id'))
      .where('event_key', '=', conversion.event_key)
      .where('txid_key', '=', conversion.txid_key);
    query = conversion.click_id
      ? query.where('click_id', '=', conversion.click_id)
      : query.where('lead_id', '=', conversion.lead_id ?? '');
    if (this.dialect === 'postgres') query = query.forUpdate();
    const found = await query.executeTakeFirstOrThrow();
    return {
      ...found,
      cost: Number(found.cost),
      payout: Number(found.payout),
      is_conversion: Number(found.is_conversion),
    };
  }

  async update(
    conversionId: string,
    set: {
      state: string;
      status: string | null;
      updated_at: string;
      cost: number;
      payout?: number;
      revenue?: number | null;
      original_currency?: string | null;
    },
  ): Promise<void> {
    await this.trx
      .updateTable('conversions')
      .set(set)
      .where(scopeCondition({ workspaceId: this.workspaceId }, 'workspace_id'))
      .where('conversion_id', '=', conversionId)
      .execute();
  }

  async log(entry: NewPostbackLog): Promise<void> {
    await this.trx
      .insertInto('postback_log')
      .values({ ...entry, workspace_id: this.workspaceId })
      .execute();
  }

  async queueOutbound(conversionId: string, outbound: NewOutbound): Promise<void> {
    await this.trx
      .insertInto('outbound_postbacks')
      .values({
        conversion_id: conversionId,
        created_at: outbound.createdAt,
        url: outbound.url,
        state: 'pending',
        attempts: 0,
        last_status: null,
        last_error: null,
        last_attempt_at: null,
        next_attempt_at: outbound.createdAt,
      })
      .execute();
  }

  /** Moves the click's cost (its row and the cubes holding it) by `delta`. */
  moveClickCost(click: ConversionCost['click'], delta: number): Promise<void> {
    return moveClickCost(this.trx, click, delta, this.dialect);
  }
}
