// Part (b) of the benchmark: 10 million generated clicks and 100k conversions over
// the 30 days before now, written into a Switchyard SQLite database whose campaigns, flow, offers and
// landers were configured through the API. Clicks follow the configured flow (path group → path →
// offer and lander), countries, devices, platforms and browsers are skewed as real traffic is, and
// traffic follows the hours of the day. Conversions have states (70 % approved, 20 % pending,
// 10 % rejected) and, where the schema has it, their click's time (event_at: reports count
// conversions at click time by default). Rows go in as the tracker writes them: the same columns, and the
// report rollups added by the same code (rollupDeltas, UPSERT_ONE) in the same transactions.
import Database from 'better-sqlite3';
import { rollupDeltas, UPSERT_ONE, upsertParameters } from '../apps/server/src/store/report-rollups.js';
import type { NewTrackerClick } from '../apps/server/src/store/tracker-events.js';

export interface GeneratedRouting {
  campaigns: {
    externalId: string;
    trafficSourceExternalId: string;
    flowExternalId: string;
    cost: number;
    /** Its workspace, when the database written has no configuration (else read from config_records). */
    workspaceId?: number;
  }[];
  pathGroups: { id: string; paths: { id: string; offers: string[]; landers: string[] }[] }[];
}

export interface GenerateOptions {
  clicks: number;
  conversions: number;
  days: number;
  now: Date;
  onProgress?: (written: number) => void;
}

/** Conversion states: every 10th conversion rejected, two in ten pending, the rest approved. */
export const CONVERSION_STATES = ['approved', 'pending', 'rejected'] as const;
export type ConversionState = (typeof CONVERSION_STATES)[number];

function stateOf(conversion: number): ConversionState {
  const tenth = conversion % 10;
  return tenth === 0 ? 'rejected' : tenth <= 2 ? 'pending' : 'approved';
}

/** What was generated, for the reports' totals to be checked against. */
export interface GeneratedSummary {
  clicks: number;
  /** Conversion rows by state. */
  states: Record<ConversionState, number>;
  /** Payout of the conversions not rejected (the reports' revenue), and of the approved ones. */
  revenue: number;
  revenueConfirmed: number;
}

/** Deterministic pseudo-random numbers (mulberry32): every run generates the same events. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Picks from `items` with Zipf-like weights (the first is the most common), as traffic is skewed. */
function zipf<T>(items: readonly T[], random: () => number, exponent = 1.1): () => T {
  const weights = items.map((_, index) => 1 / (index + 1) ** exponent);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative: number[] = [];
  let running = 0;
  for (const weight of weights) {
    running += weight / total;
    cumulative.push(running);
  }
  return () => {
    const draw = random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((cumulative[middle] as number) < draw) low = middle + 1;
      else high = middle;
    }
    return items[low] as T;
  };
}

const COUNTRIES = (
  'US GB DE FR IN BR CA AU IT ES NL PL MX ID JP KR TR RU UA PH VN TH MY SG ZA NG EG SA AE IL SE NO DK FI ' +
  'BE AT CH PT IE CZ RO HU GR BG RS HR SK SI LT LV EE AR CL CO PE VE NZ PK BD KZ'
).split(' ');
const AGENTS: { device: string; platform: string; browser: string }[] = [
  { device: 'mobile', platform: 'android', browser: 'Chrome Mobile' },
  { device: 'mobile', platform: 'ios', browser: 'Mobile Safari' },
  { device: 'desktop', platform: 'windows', browser: 'Chrome' },
  { device: 'mobile', platform: 'android', browser: 'Samsung Browser' },
  { device: 'desktop', platform: 'mac', browser: 'Safari' },
  { device: 'desktop', platform: 'windows', browser: 'Edge' },
  { device: 'tablet', platform: 'ios', browser: 'Mobile Safari' },
  { device: 'desktop', platform: 'windows', browser: 'Firefox' },
  { device: 'mobile', platform: 'android', browser: 'Facebook' },
  { device: 'desktop', platform: 'linux', browser: 'Chrome' },
  { device: 'mobile', platform: 'android', browser: 'Firefox Mobile' },
  { device: 'desktop', platform: 'chromeos', browser: 'Chrome' },
];
const SUBAFFS = ['push-1', 'push-22', 'pop-3', 'native-7', 'push-9', null];

/** Traffic by UTC hour: low at night (for the bulk of it), high in the evening. */
const HOUR_WEIGHTS = Array.from({ length: 24 }, (_, hour) => 0.6 + 0.4 * Math.sin(((hour - 9) / 24) * 2 * Math.PI));

const CHUNK = 50_000;

function id(prefix: string, index: number): string {
  // 22 characters like the tracker's own ids; the index keeps them unique and the run repeatable.
  return `${prefix}${index.toString(36).padStart(10, '0')}`.padEnd(22, 'x');
}

/** Writes the events into the SQLite database at `file` (migrated, with its configuration). */
export function generateEvents(file: string, routing: GeneratedRouting, options: GenerateOptions): GeneratedSummary {
  const random = seeded(20261121);
  const campaign = zipf(routing.campaigns, random, 0.9);
  const country = zipf(COUNTRIES, random, 1.2);
  const agent = zipf(AGENTS, random, 1);
  const subaff = zipf(SUBAFFS, random, 0.8);
  const zone = zipf(
    Array.from({ length: 300 }, (_, index) => `z${index + 100}`),
    random,
    1,
  );

  // Clicks spread over the days by hour weight, in time order (as they arrive).
  const end = options.now.getTime();
  const start = end - options.days * 86_400_000;
  const hours = options.days * 24;
  const hourStart = Math.floor(start / 3_600_000);
  const hourShares = Array.from({ length: hours }, (_, index) => HOUR_WEIGHTS[(hourStart + index) % 24] as number);
  const shareTotal = hourShares.reduce((sum, share) => sum + share, 0);
  const conversionRate = options.conversions / options.clicks;

  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  // The events' indexes are dropped while rows go in and built again at the end (the same indexes, built
  // once rather than row by row: minutes saved on 10 million rows).
  const indexes = db
    .prepare(
      "select name, sql from sqlite_master where type = 'index' and tbl_name in ('tracker_clicks', 'conversions') and sql is not null",
    )
    .all() as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`drop index "${index.name}"`);
  // workspace_id (migration 0023) when the schema has it: each click's campaign's, as the tracker
  // writes it; its conversions take the same.
  const withWorkspace = (db.prepare('pragma table_info(tracker_clicks)').all() as { name: string }[]).some(
    (column) => column.name === 'workspace_id',
  );
  const workspaces = new Map(
    (
      db.prepare("select external_id, workspace_id from config_records where kind = 'tracker-campaigns'").all() as {
        external_id: string;
        workspace_id: number | null;
      }[]
    ).map((row) => [row.external_id, row.workspace_id ?? 0]),
  );
  for (const campaign of routing.campaigns) {
    if (campaign.workspaceId !== undefined) workspaces.set(campaign.externalId, campaign.workspaceId);
  }
  const insertClick = db.prepare(`insert into tracker_clicks (click_id, created_at, campaign_external_id,
    flow_external_id, path_group_id, path_id, lander_external_id, offer_external_id, traffic_source_external_id,
    visitor_id, is_unique, ip, country, device, platform, browser, user_agent, referrer, external_click_id, subaff,
    var1, var2, vars, cost, is_bot, reason${withWorkspace ? ', workspace_id' : ''})
    values (@click_id, @created_at, @campaign_external_id, @flow_external_id, @path_group_id, @path_id,
    @lander_external_id, @offer_external_id, @traffic_source_external_id, @visitor_id, @is_unique, @ip, @country,
    @device, @platform, @browser, @user_agent, @referrer, @external_click_id, @subaff, @var1, @var2, @vars, @cost,
    @is_bot, @reason${withWorkspace ? ', @workspace_id' : ''})`);
  // state and event_at when the schema has them: the bench runs against the schema
  // of the checkout it is in.
  const conversionColumns = new Set(
    (db.prepare('pragma table_info(conversions)').all() as { name: string }[]).map((column) => column.name),
  );
  const withState = conversionColumns.has('state');
  const withEventAt = conversionColumns.has('event_at');
  const insertConversion = db.prepare(`insert into conversions (conversion_id, created_at, click_id,
    campaign_external_id, flow_external_id, path_group_id, path_id, offer_external_id, lander_external_id,
    traffic_source_external_id, is_conversion, payout, revenue, currency, txid, country, subaff, raw
    ${withState ? ', state' : ''}${withEventAt ? ', event_at' : ''}${withWorkspace ? ', workspace_id' : ''})
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 'USD', ?, ?, ?, '{}'${withState ? ', ?' : ''}${withEventAt ? ', ?' : ''}${withWorkspace ? ', ?' : ''})`);
  const summary: GeneratedSummary = {
    clicks: options.clicks,
    states: { approved: 0, pending: 0, rejected: 0 },
    revenue: 0,
    revenueConfirmed: 0,
  };
  const upsertRollup = withWorkspace ? db.prepare(UPSERT_ONE) : null;

  type Conversion = unknown[];
  const writeChunk = db.transaction((clicks: NewTrackerClick[], conversions: Conversion[]) => {
    for (const click of clicks) insertClick.run(click);
    // A schema before 0023 (bench/migrate-workspace.ts) has rollups without workspaces: that migration
    // builds them from the events.
    if (withWorkspace) for (const delta of rollupDeltas(clicks, [])) upsertRollup?.run(upsertParameters(delta));
    for (const conversion of conversions) insertConversion.run(conversion);
  });

  let clicks: NewTrackerClick[] = [];
  let conversions: Conversion[] = [];
  let written = 0;
  let conversionCount = 0;
  let carried = 0;
  for (let hour = 0; hour < hours; hour += 1) {
    // This hour's share of the clicks, carrying fractions so the total is exact.
    const exact = (options.clicks * (hourShares[hour] as number)) / shareTotal + carried;
    const count = hour === hours - 1 ? options.clicks - written - clicks.length : Math.floor(exact);
    carried = exact - count;
    const hourMs = start + hour * 3_600_000;
    const times = Array.from({ length: count }, () => hourMs + Math.floor(random() * 3_600_000)).sort((a, b) => a - b);
    for (const time of times) {
      const index = written + clicks.length;
      const chosen = campaign();
      const group = routing.pathGroups[
        Math.floor(random() * routing.pathGroups.length)
      ] as GeneratedRouting['pathGroups'][number];
      const path = group.paths[Math.floor(random() * group.paths.length)] as (typeof group.paths)[number];
      const offer = path.offers[Math.floor(random() * path.offers.length)] ?? null;
      const lander =
        path.landers.length > 0 ? (path.landers[Math.floor(random() * path.landers.length)] as string) : null;
      const who = agent();
      const where = random() < 0.02 ? null : country();
      const sub = subaff();
      const createdAt = new Date(time).toISOString();
      const click = {
        click_id: id('c', index),
        created_at: createdAt,
        campaign_external_id: chosen.externalId,
        flow_external_id: chosen.flowExternalId,
        path_group_id: group.id,
        path_id: path.id,
        lander_external_id: lander,
        offer_external_id: offer,
        traffic_source_external_id: chosen.trafficSourceExternalId,
        visitor_id: id('v', Math.floor(random() * options.clicks * 0.6)),
        is_unique: random() < 0.7 ? 1 : 0,
        ip: null,
        country: where,
        device: who.device,
        platform: who.platform,
        browser: who.browser,
        user_agent: null,
        referrer: null,
        external_click_id: id('e', index),
        subaff: sub,
        var1: zone(),
        var2: id('x', index),
        vars: '{}',
        cost: chosen.cost,
        is_bot: random() < 0.01 ? 1 : 0,
        reason: 'matched',
        workspace_id: workspaces.get(chosen.externalId) ?? 0,
      } satisfies NewTrackerClick;
      clicks.push(click);
      // Every (1 / rate)-th click converts: exactly `conversions` of them.
      if (Math.floor((index + 1) * conversionRate) > Math.floor(index * conversionRate)) {
        conversionCount += 1;
        const convertedAt = Math.min(end - 1, time + Math.floor(random() * 7_200_000));
        const payout = Math.round((1 + random() * 19) * 100) / 100;
        // Without the state column every conversion is approved (the column's default since migration 0008).
        const state = withState ? stateOf(conversionCount) : 'approved';
        summary.states[state] += 1;
        if (state !== 'rejected') summary.revenue += payout;
        if (state === 'approved') summary.revenueConfirmed += payout;
        conversions.push([
          id('k', conversionCount),
          new Date(convertedAt).toISOString(),
          click.click_id,
          click.campaign_external_id,
          click.flow_external_id,
          click.path_group_id,
          click.path_id,
          click.offer_external_id,
          click.lander_external_id,
          click.traffic_source_external_id,
          payout,
          payout,
          id('t', conversionCount),
          click.country,
          click.subaff,
          ...(withState ? [state] : []),
          ...(withEventAt ? [createdAt] : []),
          ...(withWorkspace ? [click.workspace_id] : []),
        ]);
      }
      if (clicks.length >= CHUNK) {
        writeChunk(clicks, conversions);
        written += clicks.length;
        clicks = [];
        conversions = [];
        options.onProgress?.(written);
      }
    }
  }
  writeChunk(clicks, conversions);
  written += clicks.length;
  options.onProgress?.(written);
  for (const index of indexes) db.exec(index.sql);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('optimize');
  db.close();
  return summary;
}
