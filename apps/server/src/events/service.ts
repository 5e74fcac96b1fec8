// The event tables: single clicks, leads and conversions, newest first, narrowed by the
// report's filters (query.ts) so that the list behind a report row holds exactly the events it counts.
//
// A page is one query on the event table (its filters, `created_at desc, id desc`, limit and offset — on
// the created_at index), and one count with the same filters; then, per page, one query for the clicks'
// conversions (by click id) and one for the names of the records the page mentions.

import type {
  BotReason,
  ClickEvent,
  ConversionEvent,
  ConversionState,
  EventKind,
  EventRows,
  EventVisitor,
  LeadEvent,
  ListResponse,
  LoggedRecord,
  TEventQuery,
} from '@switchyard/domain';
import { BOT_REASONS, CONVERSION_STATES } from '@switchyard/domain';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type RecordRef, recordNames } from '../postback-log/record-names.js';
import type { Database } from '../store/schema.js';
import type { Scope } from '../store/scope.js';
import { conversionsOf } from './click-conversions.js';
import { EVENT_TABLES, eventWhere, FROM_ORIGIN } from './query.js';

type Row = Record<string, unknown>;

const VAR_NAMES = ['var1', 'var2', 'var3', 'var4', 'var5', 'var6', 'var7', 'var8', 'var9', 'var10'] as const;

function text(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function flag(value: unknown): boolean {
  return Number(value) === 1 || value === true;
}

function parseObject(value: unknown): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(String(value ?? '{}'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function asState(value: unknown): ConversionState {
  return (CONVERSION_STATES as readonly string[]).includes(String(value)) ? (value as ConversionState) : 'approved';
}

function varsOf(row: Row, prefix = ''): Record<(typeof VAR_NAMES)[number], string | null> {
  const vars = {} as Record<(typeof VAR_NAMES)[number], string | null>;
  for (const name of VAR_NAMES) vars[name] = text(row[`${prefix}${name}`]);
  return vars;
}

/** Names of the records a page mentions, in one query (as the postback log names them). */
async function namesOf(
  db: Kysely<Database>,
  refs: RecordRef[],
  scope: Scope,
): Promise<(kind: string, id: unknown) => LoggedRecord | null> {
  const named = await recordNames(db, refs, scope);
  return (kind, id) => {
    const externalId = text(id);
    return externalId === null ? null : named({ kind, external_id: externalId });
  };
}

/** The config kinds an event's references are, by side (tracker for clicks, API for leads). */
function kindsOf(tracker: boolean) {
  return {
    campaign: tracker ? 'tracker-campaigns' : 'campaigns',
    flow: tracker ? 'tracker-flows' : 'flows',
    offer: tracker ? 'tracker-offers' : 'offers',
    lander: 'tracker-landers',
    traffic_source: 'traffic-sources',
    affiliate_network: 'affiliate-networks',
    event: 'postback-events',
  };
}

const REFERENCES = [
  ['campaign', 'campaign_external_id'],
  ['flow', 'flow_external_id'],
  ['offer', 'offer_external_id'],
  ['lander', 'lander_external_id'],
  ['traffic_source', 'traffic_source_external_id'],
  ['affiliate_network', 'affiliate_network_external_id'],
  ['event', 'postback_event_external_id'],
] as const;

function isTrackerSide(kind: EventKind, row: Row): boolean {
  return kind === 'clicks' || (kind === 'conversions' && row.click_id !== null && row.click_id !== undefined);
}

function count(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/** The visitor's columns of a click or lead row. */
function visitorOf(row: Row): EventVisitor {
  const reason = text(row.bot_reason);
  return {
    region: text(row.region),
    city: text(row.city),
    asn: count(row.asn),
    isp: text(row.isp),
    language: text(row.language),
    referrer_domain: text(row.referrer_domain),
    os_version: count(row.os_version),
    browser_version: count(row.browser_version),
    bot_reason: reason !== null && (BOT_REASONS as readonly string[]).includes(reason) ? (reason as BotReason) : null,
  };
}

export class EventsService {
  constructor(private readonly db: Kysely<Database>) {}

  async list<Kind extends EventKind>(
    kind: Kind,
    query: TEventQuery,
    scope: Scope,
  ): Promise<ListResponse<EventRows[Kind]>> {
    const { conditions, joinOrigin } = await eventWhere(this.db, kind, query, scope);
    const table = sql.table(EVENT_TABLES[kind]);
    const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
    const origin = (wanted: boolean): RawBuilder<unknown> =>
      kind === 'conversions' && wanted
        ? sql` left join ${sql.table('tracker_clicks')} as ${sql.table('c')} on ${sql.ref('c.click_id')} = ${sql.ref('e.click_id')}
            left join ${sql.table('tracker_leads')} as ${sql.table('l')} on ${sql.ref('l.lead_id')} = ${sql.ref('e.lead_id')}`
        : sql``;
    const originColumns =
      kind === 'conversions'
        ? sql`, ${sql.join(
            [...FROM_ORIGIN].map(
              (name) => sql`coalesce(${sql.ref(`c.${name}`)}, ${sql.ref(`l.${name}`)}) as ${sql.ref(`origin_${name}`)}`,
            ),
          )}`
        : sql``;
    const [page, count] = await Promise.all([
      sql<Row>`select ${sql.ref('e')}.*${originColumns} from ${table} as ${sql.table('e')}${origin(true)} ${where}
        order by ${sql.ref('e.created_at')} desc, ${sql.ref('e.id')} desc
        limit ${query.limit} offset ${(query.page - 1) * query.limit}`.execute(this.db),
      sql<{
        total: unknown;
      }>`select count(*) as ${sql.ref('total')} from ${table} as ${sql.table('e')}${origin(joinOrigin)} ${where}`.execute(
        this.db,
      ),
    ]);
    const rows = page.rows;
    const total = Number(count.rows[0]?.total ?? 0);

    const refs: RecordRef[] = [];
    for (const row of rows) {
      const kinds = kindsOf(isTrackerSide(kind, row));
      for (const [name, column] of REFERENCES) {
        const id = text(row[column]);
        if (id !== null) refs.push({ kind: kinds[name], external_id: id });
      }
    }
    const [named, conversions] = await Promise.all([
      namesOf(this.db, refs, scope),
      kind === 'clicks'
        ? conversionsOf(
            this.db,
            'click_id',
            rows.map((row) => String(row.click_id)),
            scope,
          )
        : new Map(),
    ]);
    const reference = (row: Row, name: (typeof REFERENCES)[number][0]) => {
      const column = REFERENCES.find(([key]) => key === name)?.[1] ?? '';
      return named(kindsOf(isTrackerSide(kind, row))[name], row[column]);
    };
    const common = (row: Row) => ({
      created_at: String(row.created_at),
      campaign: reference(row, 'campaign') ?? {
        kind: kindsOf(isTrackerSide(kind, row)).campaign,
        external_id: '',
        name: null,
      },
      flow: reference(row, 'flow'),
      path_group_id: text(row.path_group_id),
      path_id: text(row.path_id),
      offer: reference(row, 'offer'),
      traffic_source: reference(row, 'traffic_source'),
      country: text(row.country),
      subaff: text(row.subaff),
    });

    const list = rows.map((row): EventRows[Kind] => {
      if (kind === 'clicks') {
        const click: ClickEvent = {
          click_id: String(row.click_id),
          ...common(row),
          lander: reference(row, 'lander'),
          visitor_id: String(row.visitor_id ?? ''),
          is_unique: flag(row.is_unique),
          ip: text(row.ip),
          device: text(row.device),
          platform: text(row.platform),
          browser: text(row.browser),
          user_agent: text(row.user_agent),
          referrer: text(row.referrer),
          external_click_id: text(row.external_click_id),
          ...varsOf(row),
          vars: parseObject(row.vars),
          cost: Number(row.cost ?? 0),
          cost_flag: text(row.cost_flag),
          is_bot: flag(row.is_bot),
          ...visitorOf(row),
          reason: String(row.reason ?? ''),
          conversions: conversions.get(String(row.click_id)) ?? [],
        };
        return click as EventRows[Kind];
      }
      if (kind === 'leads') {
        const lead: LeadEvent = {
          lead_id: String(row.lead_id),
          ...common(row),
          email_hash: String(row.email_hash ?? ''),
          email_domain: String(row.email_domain ?? ''),
          age: row.age === null || row.age === undefined ? null : Number(row.age),
          ip: text(row.ip),
          device: text(row.device),
          platform: text(row.platform),
          browser: text(row.browser),
          user_agent: text(row.user_agent),
          ...varsOf(row),
          vars: parseObject(row.vars),
          is_bot: flag(row.is_bot),
          ...visitorOf(row),
          decision: String(row.decision ?? ''),
          reason: String(row.reason ?? ''),
          backup_used: flag(row.backup_used),
          is_unique: flag(row.is_unique),
        };
        return lead as EventRows[Kind];
      }
      const conversion: ConversionEvent = {
        conversion_id: String(row.conversion_id),
        ...common(row),
        event_at: text(row.event_at),
        updated_at: text(row.updated_at),
        click_id: text(row.click_id),
        lead_id: text(row.lead_id),
        lander: reference(row, 'lander'),
        affiliate_network: reference(row, 'affiliate_network'),
        event: reference(row, 'event'),
        status: text(row.status),
        is_conversion: flag(row.is_conversion),
        state: asState(row.state),
        payout: Number(row.payout ?? 0),
        revenue: row.revenue === null || row.revenue === undefined ? null : Number(row.revenue),
        cost: Number(row.cost ?? 0),
        currency: String(row.currency ?? 'USD'),
        original_currency: text(row.original_currency),
        txid: text(row.txid),
        device: text(row.origin_device),
        platform: text(row.origin_platform),
        browser: text(row.origin_browser),
        ...varsOf(row, 'origin_'),
        payout_rule_id: text(row.payout_rule_id),
        raw: parseObject(row.raw),
      };
      return conversion as EventRows[Kind];
    });
    return { list, total };
  }
}
