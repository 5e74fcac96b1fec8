import { Badge, Group, Text } from '@mantine/core';
import type {
  ClickEvent,
  ConversionEvent,
  EventKind,
  EventRows,
  EventVisitor,
  LeadEvent,
  LoggedRecord,
} from '@switchyard/domain';
import type { ReactNode } from 'react';
import type { CsvCell } from '../reports/csv';

// The columns of each event table: every stored field, a few shown by default; the column
// picker keeps each kind's choice. Money columns are left out for a user who may not see money.

export interface EventFormat {
  time: (iso: string) => string;
  yes: string;
  no: string;
  /** An amount at its currency's decimals (a conversion's own currency, else the workspace's). */
  money: (value: number, currency?: string) => string;
  state: (state: string) => string;
  costFlag: (flag: string) => string;
  /** Why an event was judged a bot, in words. */
  botReason: (reason: string) => string;
  /** "Yes: {reason}". */
  botBecause: (reason: string) => string;
  /** The routing decision's reason as a sentence. */
  routingReason: (reason: string) => string;
}

export interface EventColumn<Row> {
  key: string;
  money?: boolean;
  shown?: boolean;
  /** The cell's text for the CSV (and the table, unless `render`). */
  value: (row: Row, format: EventFormat) => CsvCell;
  render?: (row: Row, format: EventFormat) => ReactNode;
}

const VAR_KEYS = ['var1', 'var2', 'var3', 'var4', 'var5', 'var6', 'var7', 'var8', 'var9', 'var10'] as const;

const record = (value: LoggedRecord | null) => (value ? (value.name ?? value.external_id) : null);

function field<Row>(key: keyof Row & string, shown = false): EventColumn<Row> {
  return { key, shown, value: (row) => (row[key] as CsvCell) ?? null };
}
function named<Row>(key: keyof Row & string, shown = false): EventColumn<Row> {
  return { key, shown, value: (row) => record(row[key] as LoggedRecord | null) };
}
function flag<Row>(key: keyof Row & string, shown = false): EventColumn<Row> {
  return { key, shown, value: (row, format) => (row[key] ? format.yes : format.no) };
}
/** The routing reason: a sentence on screen; the CSV keeps the server's code, stable for spreadsheets. */
function reason<Row extends { reason: string }>(): EventColumn<Row> {
  return {
    key: 'reason',
    shown: true,
    value: (row) => row.reason,
    render: (row, format) => (row.reason ? format.routingReason(row.reason) : null),
  };
}
/** The bot verdict, with its reason when the event is a bot. */
function bot<Row extends { is_bot: boolean; bot_reason?: string | null }>(): EventColumn<Row> {
  return {
    key: 'is_bot',
    shown: true,
    value: (row, format) =>
      row.is_bot ? (row.bot_reason ? format.botBecause(format.botReason(row.bot_reason)) : format.yes) : format.no,
  };
}
/** What was read off the visitor; empty until the server sends it. */
function visitor<Row extends Partial<EventVisitor>>(): EventColumn<Row>[] {
  return [
    { key: 'region', value: (row) => row.region ?? null },
    { key: 'city', value: (row) => row.city ?? null },
    { key: 'asn', value: (row) => (typeof row.asn === 'number' ? `AS${row.asn}` : null) },
    { key: 'isp', value: (row) => row.isp ?? null },
    { key: 'language', value: (row) => row.language ?? null },
    { key: 'referrer_domain', value: (row) => row.referrer_domain ?? null },
    { key: 'os_version', value: (row) => row.os_version ?? null },
    { key: 'browser_version', value: (row) => row.browser_version ?? null },
    { key: 'bot_reason', value: (row, format) => (row.bot_reason ? format.botReason(row.bot_reason) : null) },
  ];
}
function time<Row extends { created_at: string }>(): EventColumn<Row> {
  return { key: 'created_at', shown: true, value: (row, format) => format.time(row.created_at) };
}
function vars<Row extends Record<(typeof VAR_KEYS)[number], string | null>>(): EventColumn<Row>[] {
  return VAR_KEYS.map((key) => ({ key, value: (row: Row) => row[key] }));
}
function money<Row>(key: keyof Row & string, shown = true): EventColumn<Row> {
  return {
    key,
    shown,
    money: true,
    value: (row) => {
      const value = row[key];
      return typeof value === 'number' ? value : null;
    },
    render: (row, format) => {
      const value = row[key];
      const currency = (row as { currency?: unknown }).currency;
      return typeof value === 'number'
        ? format.money(value, typeof currency === 'string' ? currency : undefined)
        : null;
    },
  };
}

const CLICK_COLUMNS: EventColumn<ClickEvent>[] = [
  time(),
  field('click_id', true),
  named('campaign', true),
  named('offer', true),
  named('lander'),
  named('flow'),
  named('traffic_source'),
  field('path_group_id'),
  field('path_id'),
  reason(),
  field('country', true),
  field('device', true),
  field('platform'),
  field('browser'),
  field('ip'),
  field('user_agent'),
  field('referrer'),
  ...visitor<ClickEvent>(),
  field('visitor_id'),
  field('external_click_id'),
  flag('is_unique'),
  bot<ClickEvent>(),
  field('subaff'),
  ...vars<ClickEvent>(),
  money('cost'),
  { key: 'cost_flag', value: (row, format) => (row.cost_flag ? format.costFlag(row.cost_flag) : null) },
  {
    key: 'conversions',
    shown: true,
    value: (row, format) =>
      row.conversions.map((conversion) => `${conversion.conversion_id} (${format.state(conversion.state)})`).join('; '),
    render: (row, format) =>
      row.conversions.length === 0 ? null : (
        <Group gap={4} wrap="wrap">
          {row.conversions.map((conversion) => (
            <Badge key={conversion.conversion_id} variant="light" tt="none" title={conversion.conversion_id}>
              {format.state(conversion.state)}
              {conversion.payout === undefined ? '' : ` · ${format.money(conversion.payout)}`}
              <Text span size="xs" ms={4} ff="monospace">
                {conversion.conversion_id.slice(0, 8)}
              </Text>
            </Badge>
          ))}
        </Group>
      ),
  },
];

const LEAD_COLUMNS: EventColumn<LeadEvent>[] = [
  time(),
  field('lead_id', true),
  named('campaign', true),
  named('offer', true),
  named('flow'),
  named('traffic_source'),
  field('path_group_id'),
  field('path_id'),
  field('decision', true),
  reason(),
  flag('backup_used'),
  field('country', true),
  field('device'),
  field('platform'),
  field('browser'),
  field('ip'),
  field('user_agent'),
  ...visitor<LeadEvent>(),
  field('email_domain', true),
  field('email_hash'),
  field('age'),
  bot<LeadEvent>(),
  field('subaff'),
  ...vars<LeadEvent>(),
];

const CONVERSION_COLUMNS: EventColumn<ConversionEvent>[] = [
  time(),
  { key: 'event_at', value: (row, format) => (row.event_at ? format.time(row.event_at) : null) },
  field('conversion_id', true),
  field('click_id', true),
  field('lead_id'),
  named('campaign', true),
  named('offer', true),
  named('lander'),
  named('flow'),
  named('traffic_source'),
  named('affiliate_network'),
  named('event', true),
  field('status'),
  { key: 'state', shown: true, value: (row, format) => format.state(row.state) },
  flag('is_conversion'),
  money('payout'),
  money('revenue', false),
  money('cost', false),
  field('currency'),
  field('original_currency'),
  field('txid', true),
  field('country', true),
  field('device'),
  field('platform'),
  field('browser'),
  field('subaff'),
  ...vars<ConversionEvent>(),
  field('payout_rule_id'),
  field('path_group_id'),
  field('path_id'),
  { key: 'updated_at', value: (row, format) => (row.updated_at ? format.time(row.updated_at) : null) },
];

export const EVENT_COLUMNS: { [Kind in EventKind]: EventColumn<EventRows[Kind]>[] } = {
  clicks: CLICK_COLUMNS,
  leads: LEAD_COLUMNS,
  conversions: CONVERSION_COLUMNS,
};

/** The columns a user may pick from: every one, or every one but money. */
export function columnsOf<Kind extends EventKind>(kind: Kind, seesMoney: boolean): EventColumn<EventRows[Kind]>[] {
  const all = EVENT_COLUMNS[kind] as EventColumn<EventRows[Kind]>[];
  return seesMoney ? all : all.filter((column) => !column.money);
}

const STORAGE_PREFIX = 'switchyard.eventColumns.';

/** The chosen columns of a kind, kept in localStorage; the default ones when none were chosen. */
export function storedColumns(kind: EventKind): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_PREFIX + kind) ?? 'null');
    if (Array.isArray(stored) && stored.every((key) => typeof key === 'string')) return stored;
  } catch {
    // A broken value reads as none chosen.
  }
  return EVENT_COLUMNS[kind].filter((column) => column.shown).map((column) => column.key);
}

export function storeColumns(kind: EventKind, keys: string[]): void {
  try {
    localStorage.setItem(STORAGE_PREFIX + kind, JSON.stringify(keys));
  } catch {
    // Private mode: the choice lasts the visit.
  }
}

/** Every column key of every kind, for the texts. */
export const ALL_COLUMN_KEYS = [
  ...new Set(Object.values(EVENT_COLUMNS).flatMap((columns) => columns.map((column) => column.key))),
];
