// Writing tracker events into SQLite (used by the event worker, store/traffic/event-worker.ts, on its own
// connection): rows arrive as arrays in EVENT_COLUMNS order and go in through one prepared statement per
// table, with their report rollups, in one transaction per call.
import type SQLite from 'better-sqlite3';
import { CAMPAIGN_KIND } from '../event-workspaces.js';
import {
  type ColumnReader,
  lpOnly,
  type RollupDelta,
  rollupDeltas,
  UPSERT_ONE,
  upsertParameters,
} from '../report-rollups.js';
import { EVENT_COLUMNS, EVENT_ID_COLUMN, type EventKind, type EventTable, LINE_COLUMNS } from '../tracker-events.js';

/** One event row, its values in EVENT_COLUMNS order. */
export type EventValues = unknown[];

export interface EventBatch {
  table: EventKind;
  rows: EventValues[];
}

/** Column name → position in an event row, per table. */
const POSITIONS = Object.fromEntries(
  Object.entries(EVENT_COLUMNS).map(([table, columns]) => [
    table,
    new Map(columns.map((column, index) => [column.name, index])),
  ]),
) as Record<EventTable, Map<string, number>>;

const reader =
  (table: EventTable): ColumnReader<EventValues> =>
  (row, column) => {
    const index = POSITIONS[table].get(column);
    return index === undefined ? undefined : row[index];
  };
const readClick = reader('tracker_clicks');
const readLead = reader('tracker_leads');

/**
 * An event row as it travels to the writer thread: its values (eventValues) in one flat string, each one
 * written as its length, `:` and the text (a string), `_` (null) or `n`, the number and `;`. One string
 * per event, made when the event happens, rather than an array of a few dozen values kept until the next
 * hand-over: the event loop's young heap then copies one object per waiting event, not forty, and handing
 * them over copies each string once.
 *
 * Not JSON: JSON.stringify looks at every character for what to escape; written with its length, a value
 * needs no escaping at all, whatever it holds (bench/README.md). The journal keeps the same line. Lengths
 * count UTF-16 code units, as `slice` does, and the worker
 * receives the very string that was made, so every value comes back exactly. A number comes back as
 * Number reads what String wrote: exact for every finite number but -0, which arrives as 0, and one that
 * is not finite becomes null, both as JSON made them.
 */
export function eventLine(table: EventKind, row: object): string {
  const values = eventValues(table, row);
  let line = '';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (typeof value === 'string') line += `${value.length}:${value}`;
    else if (value === null) line += '_';
    else if (typeof value === 'number') line += Number.isFinite(value) ? `n${value};` : '_';
    else throw new TypeError(`an event value of type ${typeof value} (${LINE_COLUMNS[table][index]?.name})`);
  }
  return line;
}

/**
 * The rows of event lines written one after another (`count` lines of `table`). A text that does not
 * read as exactly that many rows is refused (a bug, never a value: every value is read by its length).
 */
export function lineValues(table: EventKind, text: string, count: number): EventValues[] {
  const rows: EventValues[] = [];
  let at = 0;
  for (let row = 0; row < count; row += 1) {
    const values = rowAt(table, text, at, row, count);
    rows.push(values);
    at = readTo;
  }
  if (at !== text.length) throw new Error(`event lines: ${text.length - at} characters after ${count} rows`);
  return rows;
}

/** Events as the journal and the writer thread carry them: `{c|l|p}{length}:{event line}` each (p: an lp click). */
export const TABLE_CODE: Readonly<Record<EventKind, string>> = {
  tracker_clicks: 'c',
  tracker_leads: 'l',
  lp_clicks: 'p',
};

/** The events of one event-loop turn as one text (`tables[i]`, `lines[i]`). */
export function eventPayload(tables: readonly EventKind[], lines: readonly string[]): string {
  let payload = '';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    payload += `${TABLE_CODE[tables[index]!]}${line.length}:${line}`;
  }
  return payload;
}

/**
 * The rows of a payload (eventPayload, or several joined), in runs of one table of at most `maxRows`
 * rows, in the order they came. A text that does not read exactly as events is refused (a bug: every
 * value is read by its length, and the journal checks each chunk before it is read).
 */
export function payloadBatches(text: string, maxRows = Number.POSITIVE_INFINITY): EventBatch[] {
  const batches: EventBatch[] = [];
  let batch: EventBatch | null = null;
  let at = 0;
  let count = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const table: EventKind = code === LETTER_C ? 'tracker_clicks' : code === LETTER_L ? 'tracker_leads' : 'lp_clicks';
    if (code !== LETTER_C && code !== LETTER_L && code !== LETTER_P)
      throw new Error(`event payload: no event at ${at}`);
    const colon = text.indexOf(':', at);
    const length = Number(text.slice(at + 1, colon));
    if (colon < 0 || !Number.isSafeInteger(length)) throw new Error(`event payload: no length at ${at}`);
    const values = rowAt(table, text, colon + 1, count, count + 1, colon + 1 + length);
    if (readTo !== colon + 1 + length) throw new Error(`event payload: an event of the wrong length at ${at}`);
    at = readTo;
    count += 1;
    if (!batch || batch.table !== table || batch.rows.length >= maxRows) {
      batch = { table, rows: [] };
      batches.push(batch);
    }
    batch.rows.push(values);
  }
  return batches;
}

/** Where the last row read by rowAt ended. */
let readTo = 0;

/**
 * The values of the event line at `start` of `text`; sets readTo to where it ends. With `end` (the line's
 * end, known in a payload), a line that ends before its last columns is one written before they were
 * added (a journal left by an earlier version): those columns take their defaults.
 */
function rowAt(table: EventKind, text: string, start: number, row: number, count: number, end = -1): EventValues {
  const columns = LINE_COLUMNS[table];
  const width = columns.length;
  const values: EventValues = new Array(width);
  let at = start;
  for (let column = 0; column < width; column += 1) {
    if (at === end) {
      values[column] = columns[column]!.fallback;
      continue;
    }
    const kind = text.charCodeAt(at);
    if (kind === UNDERSCORE) {
      values[column] = null;
      at += 1;
    } else if (kind === LETTER_N) {
      const end = text.indexOf(';', at);
      if (end < 0) throw new Error(`event line ${row} of ${count}: a number without its end`);
      values[column] = Number(text.slice(at + 1, end));
      at = end + 1;
    } else {
      let length = 0;
      let digit = text.charCodeAt(at);
      if (!(digit >= DIGIT_0 && digit <= DIGIT_9)) throw new Error(`event line ${row} of ${count}: no value at ${at}`);
      while (digit >= DIGIT_0 && digit <= DIGIT_9) {
        length = length * 10 + (digit - DIGIT_0);
        at += 1;
        digit = text.charCodeAt(at);
      }
      if (digit !== COLON || at + 1 + length > text.length) {
        throw new Error(`event line ${row} of ${count}: a text without its length`);
      }
      values[column] = text.slice(at + 1, at + 1 + length);
      at += 1 + length;
    }
  }
  readTo = at;
  return values;
}

/** Event lines as row objects, by column name (for Kysely). */
/** An event line's id (click_id or lead_id, the first column of both tables). */
export function eventId(line: string): string {
  const colon = line.indexOf(':');
  return line.slice(colon + 1, colon + 1 + Number(line.slice(0, colon)));
}

export function lineObjects(table: EventKind, lines: readonly string[]): Record<string, unknown>[] {
  if (lines.length === 0) return [];
  return rowObjects(table, lineValues(table, lines.join(''), lines.length));
}

/** Rows as objects, by column name (for Kysely). */
export function rowObjects(table: EventKind, rows: readonly EventValues[]): Record<string, unknown>[] {
  const columns = LINE_COLUMNS[table];
  return rows.map((values) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < columns.length; index += 1) row[columns[index]!.name] = values[index];
    return row;
  });
}

const UNDERSCORE = 95;
const LETTER_N = 110;
const LETTER_C = 99;
const LETTER_L = 108;
const LETTER_P = 112;
const COLON = 58;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * Per table, a function reading an event object's columns into an array in EVENT_COLUMNS order, made once
 * from the column list: each column is read by its name written in the code, where a loop over the names
 * (`row[column.name]`) was a lookup by a name known only when it runs — the most costly lookup V8 has,
 * 35 times per click.
 */
const VALUE_READERS = Object.fromEntries(
  Object.entries(LINE_COLUMNS).map(([table, columns]) => {
    const reads = columns.map((column) => {
      if (!/^[a-z][a-z0-9_]*$/.test(column.name)) throw new Error(`unexpected column name ${column.name}`);
      return `row.${column.name} === undefined ? ${JSON.stringify(column.fallback)} : row.${column.name}`;
    });
    return [table, new Function('row', `return [${reads.join(', ')}];`) as (row: object) => EventValues];
  }),
) as Record<EventKind, (row: object) => EventValues>;

/** An event object as the row array the SQLite writer takes (a missing column gets its default). */
export function eventValues(table: EventKind, row: object): EventValues {
  return VALUE_READERS[table](row);
}

function insertText(table: EventTable): string {
  const names = EVENT_COLUMNS[table].map((column) => `"${column.name}"`);
  // An event already stored (a batch sent again after the worker stopped before saying it was written)
  // is skipped, and not counted again in the rollups.
  return (
    `insert into "${table}" (${names.join(', ')}) values (${names.map(() => '?').join(', ')}) ` +
    `on conflict ("${EVENT_ID_COLUMN[table]}") do nothing`
  );
}

/** Where workspace_id and campaign_external_id are in each table's event rows. */
const WORKSPACE_AT = {
  tracker_clicks: POSITIONS.tracker_clicks.get('workspace_id')!,
  tracker_leads: POSITIONS.tracker_leads.get('workspace_id')!,
};
const CAMPAIGN_AT = {
  tracker_clicks: POSITIONS.tracker_clicks.get('campaign_external_id')!,
  tracker_leads: POSITIONS.tracker_leads.get('campaign_external_id')!,
};

/** A campaign's workspace, else the default one (lowest id), as migration 0023 filled older rows. */
export const WORKSPACE_OF_CAMPAIGN = `select coalesce(
  (select workspace_id from config_records where kind = ? and external_id = ?),
  (select min(id) from workspaces)) as id`;

/**
 * An lp click: its click's time of going on, set once (a second visit changes nothing), in
 * its own workspace. Parameters: time, click id, workspace. Both dialects.
 */
export const LP_CLICK_UPDATE =
  'update tracker_clicks set lp_clicked_at = ? where click_id = ? and workspace_id = ? and lp_clicked_at is null';
/** The lp click in the cost change log, which the columnar stores follow (a change of cost 0). */
export const LP_CLICK_CHANGE = 'insert into tracker_click_cost_changes (click_id, delta, lp) values (?, 0, 1)';

export class SqliteEventStore {
  private statements: {
    clicks: SQLite.Statement;
    leads: SQLite.Statement;
    rollup: SQLite.Statement;
    workspace: SQLite.Statement<[string, string], { id: number | null }>;
    lp: SQLite.Statement;
    lpClick: SQLite.Statement<[string], Record<string, unknown>>;
    lpChange: SQLite.Statement<[string]>;
  } | null = null;
  private readonly transaction: SQLite.Transaction<(batches: readonly EventBatch[]) => number>;

  constructor(db: SQLite.Database) {
    this.transaction = db.transaction((batches: readonly EventBatch[]) => {
      // Prepared on first use, not in the constructor: the tables may not exist yet (the migrations
      // run on the main connection), and a failed prepare is retried with the rows.
      this.statements ??= {
        clicks: db.prepare(insertText('tracker_clicks')),
        leads: db.prepare(insertText('tracker_leads')),
        rollup: db.prepare(UPSERT_ONE),
        workspace: db.prepare(WORKSPACE_OF_CAMPAIGN),
        lp: db.prepare(LP_CLICK_UPDATE),
        lpClick: db.prepare('select * from tracker_clicks where click_id = ?'),
        lpChange: db.prepare(LP_CLICK_CHANGE),
      };
      const { clicks, leads, rollup, workspace, lp, lpClick, lpChange } = this.statements;
      const storedClicks: EventValues[] = [];
      const storedLeads: EventValues[] = [];
      // Clicks that went on to their offer in these batches, read back after their update.
      const wentOn: Record<string, unknown>[] = [];
      for (const batch of batches) {
        if (batch.table === 'lp_clicks') {
          // After the clicks of earlier batches: an lp click is only ever made for a stored click.
          for (const [clickId, workspaceId, at] of batch.rows) {
            if (lp.run(at, clickId, workspaceId).changes === 0) continue;
            lpChange.run(String(clickId));
            const click = lpClick.get(String(clickId));
            if (click) wentOn.push(click);
          }
          continue;
        }
        const isClick = batch.table === 'tracker_clicks';
        const statement = isClick ? clicks : leads;
        const stored = isClick ? storedClicks : storedLeads;
        const workspaceAt = WORKSPACE_AT[batch.table];
        for (const row of batch.rows) {
          // Only a journal line written before migration 0023 has none (or a campaign routed before any
          // workspace existed, 0): the engine writes its campaign's.
          if (!row[workspaceAt]) {
            const campaign = String(row[CAMPAIGN_AT[batch.table]]);
            row[workspaceAt] = workspace.get(CAMPAIGN_KIND[batch.table], campaign)?.id ?? null;
          }
          if (statement.run(row).changes > 0) stored.push(row);
        }
      }
      const deltas: RollupDelta[] = rollupDeltas(storedClicks, storedLeads, readClick, readLead);
      for (const delta of deltas) {
        rollup.run(upsertParameters(delta));
      }
      for (const delta of rollupDeltas(wentOn, []).map(lpOnly)) rollup.run(upsertParameters(delta));
      return storedClicks.length + storedLeads.length + wentOn.length;
    });
  }

  /** Inserts every batch and their rollups in one transaction (BEGIN IMMEDIATE); answers the rows stored. */
  write(batches: readonly EventBatch[]): number {
    try {
      return this.transaction.immediate(batches);
    } catch (error) {
      // The statements may be what failed (a table missing, a schema changed): prepared again next time.
      this.statements = null;
      throw error;
    }
  }
}
