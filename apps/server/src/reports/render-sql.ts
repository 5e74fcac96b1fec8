// An aggregate plan (plan.ts) as SQL over the event tables, in the dialect both SQLite and
// PostgreSQL read. Column names come from the plan, which takes them from report-plans.ts's whitelists; every
// value is a bound parameter.
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  type AggregatePlan,
  type AggregateRow,
  type PlanColumn,
  type PlanCondition,
  type PlanValue,
  readsOrigin,
  type Source,
} from '../report-plan/plan.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';

const TABLES: Record<Source, string> = { clicks: 'tracker_clicks', leads: 'tracker_leads', conversions: 'conversions' };

function column({ name, origin }: PlanColumn): RawBuilder<unknown> {
  // A conversion reads it from the click or lead it converts.
  if (origin) return sql`coalesce(${sql.ref(`c.${name}`)}, ${sql.ref(`l.${name}`)})`;
  return sql`${sql.ref(`e.${name}`)}`;
}

/** `flag`: 1/0 as `true`/`false`; `text`: a bigint (asn) compared and shown as text on both databases. */
export function asShown(value: RawBuilder<unknown>, as: PlanValue['as']): RawBuilder<unknown> {
  if (as === 'flag')
    return sql`case when ${value} = 1 then ${sql.lit('true')} when ${value} = 0 then ${sql.lit('false')} end`;
  if (as === 'text') return sql`cast(${value} as text)`;
  return value;
}

function shownValue({ column: read, as }: PlanValue): RawBuilder<unknown> {
  return asShown(column(read), as);
}

function condition(plan: AggregatePlan, where: PlanCondition): Expression<SqlBool> {
  switch (where.kind) {
    case 'equals': {
      const value = shownValue(where.value);
      return where.to === null ? sql<SqlBool>`${value} is null` : sql<SqlBool>`${value} = ${where.to}`;
    }
    case 'workspace':
      // The acting workspace's events, by the column every event row carries.
      return scopeCondition({ workspaceId: where.workspace }, 'e.workspace_id');
    case 'time':
      return where.op === '>='
        ? sql<SqlBool>`${sql.ref(`e.${plan.time}`)} >= ${where.at}`
        : sql<SqlBool>`${sql.ref(`e.${plan.time}`)} < ${where.at}`;
    case 'never':
      return sql<SqlBool>`1 = 0`;
    case 'instance':
      return scopeCondition({ instance: true }, 'e.workspace_id');
    case 'network':
      return networkCondition(plan.source, where.network, where.offers);
  }
}

/** The affiliate_network filter (plan.ts); offer ids are bound values. */
function networkCondition(source: Source, network: string | null, offers: readonly string[]): Expression<SqlBool> {
  const offer = sql.ref('e.offer_external_id');
  const list = sql.join(offers.map((id) => sql`${id}`));
  // null: no network — no offer, or an offer that belongs to none.
  const byOffer =
    network === null
      ? offers.length === 0
        ? sql<SqlBool>`1 = 1`
        : sql<SqlBool>`(${offer} is null or ${offer} not in (${list}))`
      : offers.length === 0
        ? sql<SqlBool>`1 = 0`
        : sql<SqlBool>`${offer} in (${list})`;
  if (source !== 'conversions') return byOffer;
  const own = sql.ref('e.affiliate_network_external_id');
  return network === null
    ? sql<SqlBool>`(${own} is null and ${byOffer})`
    : sql<SqlBool>`(${own} = ${network} or (${own} is null and ${byOffer}))`;
}

/**
 * An amount as summed: 0 for one that is not finite (±Infinity or NaN, stored before payouts
 * were checked) or NULL, so that one such row cannot make a whole total infinite, shown as null.
 */
function finiteAmount(column: string): RawBuilder<unknown> {
  const value = sql.ref(column);
  return sql`case when ${value} > -1e308 and ${value} < 1e308 then ${value} else 0 end`;
}

/** Conversions' figures (figures.ts §Figures): counts by state, revenue of the rows not rejected, and approved. */
function conversionFigures(): RawBuilder<unknown>[] {
  const counted = sql`${sql.ref('e.is_conversion')} = 1`;
  const state = sql.ref('e.state');
  const payout = finiteAmount('e.payout');
  const count = (test: RawBuilder<unknown>, alias: string) =>
    sql`coalesce(sum(case when ${test} then 1 else 0 end), 0) as ${sql.ref(alias)}`;
  const amount = (test: RawBuilder<unknown>, alias: string) =>
    sql`coalesce(sum(case when ${test} then ${payout} else 0 end), 0) as ${sql.ref(alias)}`;
  return [
    count(sql`${counted} and ${state} in (${sql.lit('pending')}, ${sql.lit('approved')})`, 'conversions'),
    count(sql`${counted} and ${state} = ${sql.lit('approved')}`, 'approved'),
    count(sql`${counted} and ${state} = ${sql.lit('pending')}`, 'pending'),
    count(sql`${counted} and ${state} = ${sql.lit('rejected')}`, 'rejected'),
    amount(sql`${state} <> ${sql.lit('rejected')}`, 'revenue'),
    amount(sql`${state} = ${sql.lit('approved')}`, 'revenue_confirmed'),
  ];
}

/** Clicks' figures: bots' clicks left out of clicks and unique clicks unless the plan includes them. */
function clickFigures(plan: AggregatePlan): RawBuilder<unknown>[] {
  const bot = sql`${sql.ref('e.is_bot')} = 1`;
  // The clicks matching `test`, bots' only when the plan includes them (lp_clicks, lander_clicks).
  const counted = (test: RawBuilder<unknown>, alias: string) =>
    sql`coalesce(sum(case when ${test}${plan.includeBots ? sql`` : sql` and not (${bot})`} then 1 else 0 end), 0) as ${sql.ref(alias)}`;
  return [
    plan.includeBots
      ? sql`count(*) as ${sql.ref('clicks')}`
      : sql`coalesce(sum(case when ${bot} then 0 else 1 end), 0) as ${sql.ref('clicks')}`,
    plan.includeBots
      ? sql`coalesce(sum(${sql.ref('e.is_unique')}), 0) as ${sql.ref('unique_clicks')}`
      : sql`coalesce(sum(case when ${bot} then 0 else ${sql.ref('e.is_unique')} end), 0) as ${sql.ref('unique_clicks')}`,
    sql`coalesce(sum(${finiteAmount('e.cost')}), 0) as ${sql.ref('cost')}`,
    sql`coalesce(sum(case when ${bot} then 1 else 0 end), 0) as ${sql.ref('bot_clicks')}`,
    counted(sql`${sql.ref('e.lp_clicked_at')} is not null`, 'lp_clicks'),
    counted(sql`${sql.ref('e.lander_external_id')} is not null`, 'lander_clicks'),
  ];
}

const FIGURES: Record<Source, (plan: AggregatePlan) => RawBuilder<unknown>[]> = {
  clicks: clickFigures,
  leads: () => [sql`count(*) as ${sql.ref('leads')}`],
  conversions: conversionFigures,
};

/** The plan's rows from the event tables. */
export async function aggregateEvents(db: Kysely<Database>, plan: AggregatePlan): Promise<AggregateRow[]> {
  const selections: RawBuilder<unknown>[] = [];
  const groupings: RawBuilder<unknown>[] = [];
  const select = (expression: RawBuilder<unknown>, alias: string) => {
    selections.push(sql`${expression} as ${sql.ref(alias)}`);
    groupings.push(expression);
  };
  for (const group of plan.groups) select(shownValue(group.value), group.alias);
  if (plan.buckets) {
    // The UTC day (`YYYY-MM-DD`), or hour (`YYYY-MM-DDTHH`) and quarter (0…3), of the ISO-8601 text, in
    // both dialects.
    const time = sql.ref(`e.${plan.time}`);
    if (plan.buckets.grain === 'day') select(sql`substr(${time}, 1, 10)`, 'g_utc_day');
    else select(sql`substr(${time}, 1, 13)`, 'g_utc_hour');
    if (plan.buckets.grain === 'quarter') select(sql`cast(substr(${time}, 15, 2) as integer) / 15`, 'g_quarter');
  }
  const where = plan.where.map((entry) => condition(plan, entry));
  const joins = readsOrigin(plan)
    ? sql` left join ${sql.table('tracker_clicks')} as ${sql.table('c')} on ${sql.ref('c.click_id')} = ${sql.ref('e.click_id')}
          left join ${sql.table('tracker_leads')} as ${sql.table('l')} on ${sql.ref('l.lead_id')} = ${sql.ref('e.lead_id')}`
    : sql``;
  const statement = sql<AggregateRow>`select ${sql.join([...selections, ...FIGURES[plan.source](plan)])}
      from ${sql.table(TABLES[plan.source])} as ${sql.table('e')}${joins}
      ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
      ${groupings.length > 0 ? sql`group by ${sql.join(groupings)}` : sql`having count(*) > 0`}`;
  return (await statement.execute(db)).rows;
}
