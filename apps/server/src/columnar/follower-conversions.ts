// The conversions part of the columnar follower's pass (follower.ts). A store that has none yet copies
// every conversion as it is now, and the change log's last id in the same snapshot; from then on it
// follows the log (store/conversion-changes.ts), replacing each conversion changed with its row now.
// Everything here runs inside the follower's pass: its SQLite snapshot and its DuckDB transaction.

import { type DuckDBAppender, DuckDBTimestampValue } from '@duckdb/node-api';
import type SQLite from 'better-sqlite3';
import { FROM_ORIGIN } from '../report-plan/plan.js';
import type { DuckDBStore } from './duckdb.js';
import { CONVERSION_TEXT_COLUMNS } from './schema.js';

type RawRow = unknown[];

/** A conversion as the store keeps it (duckdb.ts): its own columns, FROM_ORIGIN's from its click or lead. */
function conversionSelected(): string {
  const text = CONVERSION_TEXT_COLUMNS.map((name) =>
    FROM_ORIGIN.has(name) ? `coalesce(c."${name}", l."${name}")` : `e."${name}"`,
  );
  return `e.conversion_id, e.created_at, e.event_at, e.is_conversion, e.state, e.payout,
    coalesce(c.asn, l.asn), coalesce(c.is_bot, l.is_bot), coalesce(e.workspace_id, 0), ${text.join(', ')}`;
}

const CONVERSION_AT = {
  id: 0,
  createdAt: 1,
  eventAt: 2,
  isConversion: 3,
  state: 4,
  payout: 5,
  asn: 6,
  isBot: 7,
  workspace: 8,
  text: 9,
};

/** Conversion changes (store/conversion-changes.ts) one pass copies at most. */
const CONVERSION_CHANGES_PASS = 50_000;
/** The progress that says the store copied every conversion once (then follows their log). */
const CONVERSIONS_COPIED = 'conversions_copied';
/** The progress holding the last conversion change the store holds. */
const CONVERSION_CHANGES = 'conversion_changes';

export class ConversionFollowing {
  /** The last change of the conversion log the store holds, committed. */
  lastChange = 0;
  /** Whether the store copied every conversion once (then follows their log). */
  private copied = false;
  private readonly lastChangeId: SQLite.Statement<[], { id: number | null }>;
  private readonly changedConversions: SQLite.Statement<[number, number], RawRow>;
  private readonly conversionRows: SQLite.Statement<[number, number], RawRow>;
  /** Every conversion after an id, with its id last (a store's first copy). */
  private readonly allConversions: SQLite.Statement<[number, number], RawRow>;

  /** `sqlite`: the follower's own connection, whose snapshots are its passes'. */
  constructor(
    sqlite: SQLite.Database,
    private readonly batch: number,
  ) {
    this.lastChangeId = sqlite.prepare('select max(id) as id from conversion_changes');
    const changed = 'select conversion_id from conversion_changes where id > ? and id <= ?';
    this.changedConversions = sqlite.prepare<[number, number], RawRow>(changed).raw(true);
    this.conversionRows = sqlite
      .prepare<[number, number], RawRow>(
        `select ${conversionSelected()} from conversions as e
         left join tracker_clicks as c on c.click_id = e.click_id
         left join tracker_leads as l on l.lead_id = e.lead_id
         where e.conversion_id in (${changed})`,
      )
      .raw(true);
    this.allConversions = sqlite
      .prepare<[number, number], RawRow>(
        `select ${conversionSelected()}, e.id from conversions as e
         left join tracker_clicks as c on c.click_id = e.click_id
         left join tracker_leads as l on l.lead_id = e.lead_id
         where e.id > ? order by e.id limit ?`,
      )
      .raw(true);
  }

  /** Where the store left off, as it recorded. */
  async resume(store: DuckDBStore): Promise<void> {
    this.lastChange = await store.progress(CONVERSION_CHANGES);
    this.copied = (await store.progress(CONVERSIONS_COPIED)) === 1;
  }

  /** The log's last change id now (in the caller's snapshot, if any). */
  newestChange(): number {
    return this.lastChangeId.get()?.id ?? 0;
  }

  /** Whether the store copied every conversion and holds the log up to its last change. */
  unchanged(): boolean {
    return this.copied && this.newestChange() <= this.lastChange;
  }

  /**
   * In the pass's snapshot and transaction: every conversion (the first copy), or the changes after
   * the store's up to `newest` (at most CONVERSION_CHANGES_PASS of them; `more` when some are left).
   * `until` is the log's id the store then holds, committed with the pass (`committed`).
   */
  async copy(store: DuckDBStore, newest: number): Promise<{ rows: number; more: boolean; until: number }> {
    if (!this.copied) {
      const rows = await this.copyAll(store);
      await store.setProgress(CONVERSION_CHANGES, newest);
      await store.setProgress(CONVERSIONS_COPIED, 1);
      return { rows, more: false, until: newest };
    }
    const from = this.lastChange;
    if (newest <= from) return { rows: 0, more: false, until: from };
    const until = Math.min(newest, from + CONVERSION_CHANGES_PASS);
    const ids = [...new Set(this.changedConversions.all(from, until).map((row) => String(row[0])))];
    const conversions = this.conversionRows.all(from, until);
    await store.replaceConversions(ids, (appender) => {
      for (const conversion of conversions) appendConversion(appender, conversion);
    });
    await store.setProgress(CONVERSION_CHANGES, until);
    return { rows: conversions.length, more: until < newest, until };
  }

  /** The pass that copied up to `until` committed. */
  committed(until: number): void {
    this.lastChange = until;
    this.copied = true;
  }

  /** Every conversion as it is now, in place of any the store held (the pass's snapshot and transaction). */
  private async copyAll(store: DuckDBStore): Promise<number> {
    await store.clearConversions();
    const idAt = CONVERSION_AT.text + CONVERSION_TEXT_COLUMNS.length;
    let after = 0;
    let copied = 0;
    for (;;) {
      const batch = this.allConversions.all(after, this.batch);
      if (batch.length === 0) return copied;
      await store.appendWith('conversions', (appender) => {
        for (const conversion of batch) appendConversion(appender, conversion);
      });
      after = Number(batch[batch.length - 1]![idAt]);
      copied += batch.length;
      if (batch.length < this.batch) return copied;
    }
  }
}

/** A conversion in the store's column order (duckdb.ts, CONVERSIONS_DDL). */
function appendConversion(appender: DuckDBAppender, row: RawRow): void {
  const at = (index: number) => row[index];
  const time = (value: unknown) => new DuckDBTimestampValue(BigInt(Date.parse(String(value))) * 1000n);
  appender.appendVarchar(String(at(CONVERSION_AT.id)));
  appender.appendInteger(Number(at(CONVERSION_AT.workspace)));
  appender.appendTimestamp(time(at(CONVERSION_AT.createdAt)));
  const eventAt = at(CONVERSION_AT.eventAt);
  if (eventAt === null || !Number.isFinite(Date.parse(String(eventAt)))) appender.appendNull();
  else appender.appendTimestamp(time(eventAt));
  appender.appendTinyInt(Number(at(CONVERSION_AT.isConversion)) === 1 ? 1 : 0);
  appender.appendVarchar(String(at(CONVERSION_AT.state)));
  appender.appendDouble(Number(at(CONVERSION_AT.payout) ?? 0));
  for (const index of [CONVERSION_AT.asn, CONVERSION_AT.isBot]) {
    const value = at(index);
    if (value === null) appender.appendNull();
    else if (index === CONVERSION_AT.asn) appender.appendBigInt(BigInt(value as number));
    else appender.appendTinyInt(Number(value) === 1 ? 1 : 0);
  }
  for (let index = 0; index < CONVERSION_TEXT_COLUMNS.length; index += 1) {
    const value = at(CONVERSION_AT.text + index);
    if (value === null) appender.appendNull();
    else appender.appendVarchar(String(value));
  }
  appender.endRow();
}
