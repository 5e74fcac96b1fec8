// The tracker's hot path (ARCHITECTURE.md, tracker/): routing compiled in memory and swapped whole on a
// config change, caps counted in memory, events written later in batches. A click or lead waits on
// nothing but the process itself.
import { timingSafeEqual } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { NewConversion } from '../store/conversions.js';
import type { Database } from '../store/schema.js';
import {
  type NewTrackerClick,
  type NewTrackerLead,
  type TrackerClickTable,
  type TrackerLeadTable,
  VAR_COLUMNS,
} from '../store/tracker-events.js';
import { EventWriter, type EventWriterOptions } from '../store/traffic/event-writer.js';
import type { TLeadInput } from './http/lead-input.js';
import { type OutboundOptions, OutboundPostbacks } from './outbound.js';
import {
  type CapCounters,
  dayIn,
  InProcessCapCounters,
  offerCapKey,
  pathPostbacksCapKey,
  pathRegsCapKey,
} from './rules/caps.js';
import {
  type CompiledCampaign,
  type ConfigRow,
  compileRouting,
  ROUTING_KINDS,
  type RoutingSnapshot,
} from './rules/compile.js';
import type { MacroValues } from './rules/macros.js';
import { type PostbackParams, resolvePostbackEvent, rulePayout } from './rules/postback-rules.js';
import { conditionContext, type Decision, decide, PATH_CAP_TIMEZONE, type RoutingSubject } from './rules/routing.js';
import type { Random } from './rules/weighted.js';
import { emailDomain, emailHash, emailRate } from './visitor/email.js';
import { countryOfIp } from './visitor/geo.js';
import { isoTime } from './visitor/iso-time.js';
import { UserAgentCache } from './visitor/user-agent.js';
import { eventIdTime, identifyVisitor, newEventId } from './visitor/visitor.js';

export interface TrackerLog {
  info(object: unknown, message: string): void;
  warn(object: unknown, message: string): void;
  error(object: unknown, message: string): void;
}

export interface TrackerOptions {
  random?: Random;
  caps?: CapCounters;
  now?: () => Date;
  events?: Omit<EventWriterOptions, 'log'>;
  /** The outbound postback worker (its clock defaults to `now`). */
  outbound?: OutboundOptions;
}

export type PostbackAnswer =
  | { kind: 'converted'; conversionId: string }
  | { kind: 'duplicate'; conversionId: null }
  | { kind: 'not-found' }
  | { kind: 'missing-click-id' };

type StoredClick = Selectable<TrackerClickTable>;
type StoredLead = Selectable<TrackerLeadTable>;

/** What a click request brings. */
export interface ClickRequest {
  campaignExternalId: string;
  query: Readonly<Record<string, unknown>>;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  cookieHeader: string | undefined;
}

export type ClickAnswer =
  | { kind: 'redirect'; location: string; cookies: string[]; clickId: string }
  | { kind: 'not-found' }
  | { kind: 'no-route'; cookies: string[]; clickId: string };

export type LeadAnswer =
  | { kind: 'not-found' }
  | { kind: 'unauthorized' }
  | {
      kind: 'routed';
      body: {
        lead_id: string;
        offer: { external_id: string; name: string; url: string } | null;
        path_group: { id: string; name: string } | null;
        reason: string;
      };
    };

/** Query parameters that name the traffic source's own click id (`{external_id}`). */
const EXTERNAL_CLICK_ID_PARAMETERS = new Set(['external_id', 'click_id', 'clickid', 'cid', 'subid']);
/** Vars a click URL may carry as they are, besides the traffic source's mapped parameters. */
const DIRECT_VAR = /^(subaff|email_source|step|utm_[a-z0-9_]{1,32}|var(10|[1-9]))$/;
const MAX_VAR_LENGTH = 1024;
const EMPTY_SNAPSHOT: RoutingSnapshot = compileRouting([]);
/** Events younger than this may still wait in the event writer (it writes within a second or so). */
const RECENT_EVENT_MS = 60_000;

function firstValue(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first.slice(0, MAX_VAR_LENGTH) : undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Macro values of a click or lead row besides its vars (Contract: values URL-encoded by the template);
 * each of these names wins over a var of the same name, even without a value.
 */
function macroValues(
  row: Pick<NewTrackerClick, 'campaign_external_id' | 'offer_external_id' | 'country' | 'subaff'> & {
    lander_external_id?: string | null;
    external_click_id?: string | null;
  },
  clickId: string,
  leadId: string | undefined,
  vars: Readonly<Record<string, string>>,
): MacroValues {
  return {
    clickid: clickId,
    lead_id: leadId,
    campaign_id: row.campaign_external_id,
    offer_id: row.offer_external_id,
    lander_id: row.lander_external_id,
    country: row.country,
    subaff: row.subaff,
    external_id: row.external_click_id ?? vars.external_id,
  };
}

function varColumns(
  vars: Readonly<Record<string, string | undefined>>,
): Record<(typeof VAR_COLUMNS)[number], string | null> {
  const columns = {} as Record<(typeof VAR_COLUMNS)[number], string | null>;
  for (const name of VAR_COLUMNS) columns[name] = vars[name] ?? null;
  return columns;
}

function clickCost(campaign: CompiledCampaign): number {
  if (campaign.costModel === 'CPC') return campaign.cost;
  if (campaign.costModel === 'CPM') return campaign.cost / 1000;
  return 0;
}

export class Tracker {
  private snapshot: RoutingSnapshot = EMPTY_SNAPSHOT;
  private readonly random: Random;
  private readonly caps: CapCounters;
  private readonly now: () => Date;
  private readonly userAgents = new UserAgentCache();
  private readonly events: EventWriter;
  /** The queue of postbacks owed to traffic sources, and its worker. */
  readonly outbound: OutboundPostbacks;
  /** Email hash → registrations seen (regsCount). */
  private readonly registrations = new Map<string, number>();
  private compiling: Promise<void> | null = null;
  private stale = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: TrackerLog,
    options: TrackerOptions = {},
  ) {
    this.random = options.random ?? Math.random;
    this.caps = options.caps ?? new InProcessCapCounters();
    this.now = options.now ?? (() => new Date());
    this.events = new EventWriter(db, { ...options.events, log });
    this.outbound = new OutboundPostbacks(db, log, { now: this.now, ...options.outbound });
  }

  /** Compiles the routing and counts what today's stored events already spent of the caps. */
  async start(): Promise<void> {
    await this.recompile();
    await this.warmUp();
    this.outbound.start();
  }

  /**
   * Recompiles everything and warms the cap counters again (where they are not counting): after a break
   * in the notices of other nodes' changes, or in a shared counter store that may have lost its counts.
   */
  async resync(): Promise<void> {
    await this.recompile();
    await this.warmUp();
  }

  /** The routing in force (tests and diagnostics). */
  get routing(): RoutingSnapshot {
    return this.snapshot;
  }

  /**
   * Called when a config record is saved, archived or restored: routing is recompiled and swapped in;
   * the promise settles once the change is live. Changes during a compile trigger one more.
   */
  configChanged = (kind: string): Promise<void> => {
    if (!ROUTING_KINDS.has(kind)) return Promise.resolve();
    return this.recompile();
  };

  private recompile(): Promise<void> {
    this.stale = true;
    this.compiling ??= (async () => {
      try {
        while (this.stale) {
          this.stale = false;
          const rows: ConfigRow[] = await this.db
            .selectFrom('config_records')
            .select(['kind', 'external_id', 'name', 'body', 'status'])
            .where('kind', 'in', [...ROUTING_KINDS])
            .execute();
          this.snapshot = compileRouting(rows);
          for (const [record, problem] of this.snapshot.problems) {
            this.log.warn({ record, problem }, 'config record not used for routing');
          }
        }
      } catch (error) {
        this.log.error({ err: error }, 'routing not recompiled; the previous routing stays in force');
      } finally {
        this.compiling = null;
      }
    })();
    return this.compiling;
  }

  /** Today's counts from stored events, so a restart does not hand out a cap a second time. */
  private async warmUp(): Promise<void> {
    const now = this.now();
    // Every timezone's "today" began less than 38 hours ago (UTC−12 … UTC+14).
    const since = new Date(now.getTime() - 38 * 60 * 60 * 1000).toISOString();
    const minute = sql<string>`substr(created_at, 1, 16)`;
    for (const side of ['tracker', 'api'] as const) {
      const offers = this.snapshot[side].offers;
      const capped = [...offers.values()].filter((offer) => offer.dailyCap > 0).map((offer) => offer.externalId);
      if (capped.length === 0) continue;
      const table = side === 'tracker' ? 'tracker_clicks' : 'tracker_leads';
      const rows = await this.db
        .selectFrom(table)
        .select(['offer_external_id', minute.as('minute'), (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('created_at', '>=', since)
        .where('offer_external_id', 'in', capped)
        .groupBy(['offer_external_id', minute])
        .execute();
      // Rows are per minute; a counter is warmed once, with its whole day (warm sets, it does not add).
      const spent = new Map<string, { day: string; count: number }>();
      for (const row of rows) {
        const offer = offers.get(row.offer_external_id ?? '');
        if (!offer) continue;
        const today = dayIn(now, offer.capTimezone);
        if (dayIn(new Date(`${row.minute}:00.000Z`), offer.capTimezone) !== today) continue;
        const key = offerCapKey(`${side}:${offer.externalId}`);
        spent.set(key, { day: today, count: (spent.get(key)?.count ?? 0) + Number(row.count) });
      }
      for (const [key, { day, count }] of spent) await this.caps.warm(key, day, count);
    }
    const pathDay = dayIn(now, PATH_CAP_TIMEZONE);
    const paths = await this.db
      .selectFrom('tracker_leads')
      .select(['flow_external_id', 'path_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('created_at', '>=', `${pathDay}T00:00:00.000Z`)
      .where('decision', '=', 'routed')
      .groupBy(['flow_external_id', 'path_id'])
      .execute();
    for (const row of paths) {
      if (!row.flow_external_id || !row.path_id) continue;
      await this.caps.warm(pathRegsCapKey(row.flow_external_id, row.path_id), pathDay, Number(row.count));
    }
    const registrations = await this.db
      .selectFrom('tracker_leads')
      .select(['email_hash', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('email_hash')
      .execute();
    for (const row of registrations) this.registrations.set(row.email_hash, Number(row.count));
    const postbacks = await this.db
      .selectFrom('conversions')
      .select(['flow_external_id', 'path_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where('created_at', '>=', `${pathDay}T00:00:00.000Z`)
      .where('is_conversion', '=', 1)
      .groupBy(['flow_external_id', 'path_id'])
      .execute();
    for (const row of postbacks) {
      if (!row.flow_external_id || !row.path_id) continue;
      await this.caps.warm(pathPostbacksCapKey(row.flow_external_id, row.path_id), pathDay, Number(row.count));
    }
  }

  /** Whether a click on `campaignExternalId` would be routed (an active tracker campaign). */
  hasClickCampaign(campaignExternalId: string): boolean {
    return this.snapshot.tracker.campaigns.has(campaignExternalId);
  }

  async click(request: ClickRequest): Promise<ClickAnswer> {
    const campaign = this.snapshot.tracker.campaigns.get(request.campaignExternalId);
    if (!campaign) return { kind: 'not-found' };
    const now = this.now();
    const userAgent = request.userAgent ?? '';
    const traits = this.userAgents.describe(userAgent);
    const country = countryOfIp(request.ip);
    const { vars, externalClickId } = this.clickVars(campaign, request.query);
    const decision = await decide(
      this.snapshot,
      campaign,
      {
        fields: {
          countryCode: country,
          device: traits.device,
          platform: traits.platform,
          browser: traits.browser,
          campaignId: campaign.externalId,
        },
        vars,
        now,
      },
      { random: this.random, caps: this.caps },
      false,
    );
    const visitor = identifyVisitor(request.cookieHeader, campaign.externalId);
    const clickId = newEventId(now.getTime());
    const row: NewTrackerClick = {
      click_id: clickId,
      created_at: isoTime(now),
      campaign_external_id: campaign.externalId,
      flow_external_id: campaign.flowExternalId,
      path_group_id: decision.group?.id ?? null,
      path_id: decision.path?.id ?? null,
      lander_external_id: decision.lander?.externalId ?? null,
      offer_external_id: decision.offer?.externalId ?? null,
      traffic_source_external_id: campaign.trafficSourceExternalId,
      visitor_id: visitor.id,
      is_unique: visitor.unique ? 1 : 0,
      ip: request.ip || null,
      country: country ?? null,
      device: traits.device,
      platform: traits.platform ?? null,
      browser: traits.browser ?? null,
      user_agent: userAgent.slice(0, 2048) || null,
      referrer: request.referrer?.slice(0, 2048) || null,
      external_click_id: externalClickId ?? null,
      subaff: vars.subaff ?? (decision.path?.subaff || null),
      // Written out rather than spread from varColumns: this object is built for every click.
      var1: vars.var1 ?? null,
      var2: vars.var2 ?? null,
      var3: vars.var3 ?? null,
      var4: vars.var4 ?? null,
      var5: vars.var5 ?? null,
      var6: vars.var6 ?? null,
      var7: vars.var7 ?? null,
      var8: vars.var8 ?? null,
      var9: vars.var9 ?? null,
      var10: vars.var10 ?? null,
      vars: JSON.stringify(vars),
      cost: clickCost(campaign),
      is_bot: traits.bot ? 1 : 0,
      reason: decision.reason,
    };
    this.events.addClick(row);
    const macros = macroValues(row, clickId, undefined, vars);
    // The lander when the path has one (its offer link asks for the offer later), else the offer.
    const location = decision.lander
      ? decision.lander.url.fill(macros, vars)
      : (decision.offer?.url.fill(macros, vars) ?? null);
    if (!location) return { kind: 'no-route', cookies: visitor.cookies, clickId };
    return { kind: 'redirect', location, cookies: visitor.cookies, clickId };
  }

  /**
   * Where a lander's offer link goes for `clickId`: the offer chosen at the click, from the stored click
   * (not kept in memory: holding every lander click until its visitor moves on cost more, in garbage
   * collection, than reading the one row when they do).
   */
  async offerForClick(campaignExternalId: string, clickId: string): Promise<string | null> {
    const row = await this.storedEvent(
      () => this.db.selectFrom('tracker_clicks').selectAll().where('click_id', '=', clickId).executeTakeFirst(),
      clickId,
    );
    if (!row?.offer_external_id || row.campaign_external_id !== campaignExternalId) return null;
    const offer = this.snapshot.tracker.offers.get(row.offer_external_id);
    if (!offer) return null;
    const vars = JSON.parse(row.vars) as Record<string, string>;
    return offer.url.fill(macroValues(row, clickId, undefined, vars), vars);
  }

  /**
   * A stored click or lead; one made in the last minute may still wait in the event writer, which is
   * then asked to write first (an older id, or an unknown one, does not hold up the writer).
   */
  private async storedEvent<T>(read: () => Promise<T | undefined>, id: string): Promise<T | undefined> {
    const found = await read();
    if (found !== undefined) return found;
    const made = eventIdTime(id);
    if (made === null || Math.abs(this.now().getTime() - made) > RECENT_EVENT_MS) return undefined;
    // Always wait for the writer, even with nothing pending here: a batch may be on its way.
    await this.events.flush();
    return read();
  }

  /** A lead for an API campaign; `apiKey` is checked before the body is read. */
  async lead(campaignExternalId: string, apiKey: string | undefined, parseBody: () => TLeadInput): Promise<LeadAnswer> {
    const campaign = this.snapshot.api.campaigns.get(campaignExternalId);
    if (!campaign) return { kind: 'not-found' };
    if (!campaign.ingestToken || !apiKey || !sameSecret(apiKey, campaign.ingestToken)) return { kind: 'unauthorized' };
    const input = parseBody();
    const now = this.now();
    const traits = input.user_agent !== undefined ? this.userAgents.describe(input.user_agent) : undefined;
    const country = input.country ?? countryOfIp(input.ip);
    const hash = emailHash(input.email);
    const vars: Record<string, string> = { ...input.vars };
    const decision: Decision = await decide(
      this.snapshot,
      campaign,
      {
        fields: {
          countryCode: country,
          device: traits?.device,
          platform: traits?.platform,
          browser: traits?.browser,
          campaignId: campaign.externalId,
          regsCount: this.registrations.get(hash) ?? 0,
          // Not counted yet: conversions are stored (postbacks) but not yet summed per email for routing.
          payoutsCount: 0,
          emailRate: emailRate(input.email),
          age: input.age,
        },
        vars,
        now,
      },
      { random: this.random, caps: this.caps },
      true,
    );
    const leadId = newEventId(now.getTime());
    const row: NewTrackerLead = {
      lead_id: leadId,
      created_at: isoTime(now),
      campaign_external_id: campaign.externalId,
      flow_external_id: campaign.flowExternalId,
      path_group_id: decision.group?.id ?? null,
      path_id: decision.path?.id ?? null,
      offer_external_id: decision.offer?.externalId ?? null,
      traffic_source_external_id: campaign.trafficSourceExternalId,
      email_hash: hash,
      email_domain: emailDomain(input.email),
      age: input.age ?? null,
      ip: input.ip ?? null,
      country: country ?? null,
      device: traits?.device ?? null,
      platform: traits?.platform ?? null,
      browser: traits?.browser ?? null,
      user_agent: input.user_agent || null,
      subaff: vars.subaff ?? (decision.path?.subaff || null),
      ...varColumns(vars),
      vars: JSON.stringify(vars),
      is_bot: traits?.bot ? 1 : 0,
      decision: decision.offer ? 'routed' : 'unrouted',
      reason: decision.reason,
      backup_used: decision.backupUsed ? 1 : 0,
    };
    this.events.addLead(row);
    this.registrations.set(hash, (this.registrations.get(hash) ?? 0) + 1);
    const offer = decision.offer;
    return {
      kind: 'routed',
      body: {
        lead_id: leadId,
        offer: offer
          ? {
              external_id: offer.externalId,
              name: offer.name,
              // An API offer's `{clickid}` is the lead: postbacks name it back.
              url: offer.url.fill(macroValues(row, leadId, leadId, vars), vars),
            }
          : null,
        path_group: decision.group ? { id: decision.group.id, name: decision.group.name } : null,
        reason: decision.reason,
      },
    };
  }

  /** Writes every waiting event now. */
  flush(): Promise<void> {
    return this.events.flush();
  }

  async close(): Promise<void> {
    await this.compiling;
    await this.outbound.close();
    await this.events.close();
  }

  /**
   * A postback from an affiliate network. The conversion, its log line and any outbound postbacks are
   * committed in one transaction before this resolves, so an answered postback is never lost; a
   * crash before the commit leaves the network without its `OK`, and networks resend.
   */
  async postback(params: PostbackParams, ip: string | undefined): Promise<PostbackAnswer> {
    const now = this.now();
    const log = {
      created_at: now.toISOString(),
      click_id: params.clickId ?? null,
      txid: params.txid ?? null,
      ip: ip || null,
      raw: JSON.stringify(params.raw),
    };
    if (params.clickId === undefined) {
      await this.db
        .insertInto('postback_log')
        .values({ ...log, outcome: 'missing_click_id', conversion_id: null })
        .execute();
      return { kind: 'missing-click-id' };
    }
    const origin = await this.findOrigin(params.clickId);
    if (!origin) {
      await this.db
        .insertInto('postback_log')
        .values({ ...log, outcome: 'unknown_click', conversion_id: null })
        .execute();
      return { kind: 'not-found' };
    }
    const { row } = origin;
    const side = origin.kind === 'click' ? 'tracker' : 'api';
    const snapshot = this.snapshot;
    const campaign = snapshot[side].campaigns.get(row.campaign_external_id);
    const resolved = resolvePostbackEvent(snapshot, campaign, params);
    const vars = JSON.parse(row.vars) as Record<string, string>;
    const context = conditionContext(snapshot[side].segments, this.subjectOf(origin, vars));
    const { payout, ruleId } = rulePayout(campaign, resolved.event?.externalId ?? null, context, params.revenue);
    const conversionId = newEventId(now.getTime());
    const clickId = origin.kind === 'click' ? origin.row.click_id : null;
    const leadId = origin.kind === 'lead' ? origin.row.lead_id : null;
    const conversion: NewConversion = {
      conversion_id: conversionId,
      created_at: now.toISOString(),
      click_id: clickId,
      lead_id: leadId,
      campaign_external_id: row.campaign_external_id,
      flow_external_id: row.flow_external_id,
      path_group_id: row.path_group_id,
      path_id: row.path_id,
      offer_external_id: row.offer_external_id,
      lander_external_id: origin.kind === 'click' ? origin.row.lander_external_id : null,
      traffic_source_external_id: row.traffic_source_external_id,
      affiliate_network_external_id: resolved.event?.affiliateNetworkExternalId ?? null,
      postback_event_external_id: resolved.event?.externalId ?? null,
      status: params.status ?? null,
      is_conversion: resolved.isConversion ? 1 : 0,
      payout,
      revenue: params.revenue ?? null,
      currency: (row.offer_external_id && snapshot[side].offers.get(row.offer_external_id)?.currency) || 'USD',
      txid: params.txid ?? null,
      country: row.country,
      subaff: row.subaff,
      payout_rule_id: ruleId,
      raw: log.raw,
    };
    const entry = resolved.entry;
    const postbackUrl = resolved.event ? campaign?.trafficSourcePostbackUrls.get(resolved.event.externalId) : undefined;
    const outboundUrl =
      entry?.sendToTrafficSource && postbackUrl && (payout !== 0 || entry.sendZeroConversions)
        ? postbackUrl.fill(
            {
              ...macroValues(
                origin.kind === 'click' ? origin.row : { ...origin.row, lander_external_id: null },
                params.clickId,
                leadId ?? undefined,
                vars,
              ),
              payout,
              status: params.status,
              txid: params.txid,
            },
            vars,
          )
        : null;
    const inserted = await this.db.transaction().execute(async (trx) => {
      // A repeated txid for the same click or lead hits a unique index and inserts nothing.
      const stored = await trx
        .insertInto('conversions')
        .values(conversion)
        .onConflict((conflict) => conflict.doNothing())
        .returning('id')
        .executeTakeFirst();
      await trx
        .insertInto('postback_log')
        .values({ ...log, outcome: stored ? 'converted' : 'duplicate', conversion_id: stored ? conversionId : null })
        .execute();
      if (stored && outboundUrl) {
        await trx
          .insertInto('outbound_postbacks')
          .values({
            conversion_id: conversionId,
            created_at: now.toISOString(),
            url: outboundUrl,
            state: 'pending',
            attempts: 0,
            last_status: null,
            last_error: null,
            last_attempt_at: null,
            next_attempt_at: now.toISOString(),
          })
          .execute();
      }
      return stored !== undefined;
    });
    if (!inserted) return { kind: 'duplicate', conversionId: null };
    if (resolved.isConversion && row.flow_external_id && row.path_id) {
      await this.caps.add(pathPostbacksCapKey(row.flow_external_id, row.path_id), dayIn(now, PATH_CAP_TIMEZONE), 1);
    }
    if (outboundUrl) this.outbound.kick();
    return { kind: 'converted', conversionId };
  }

  /** The click or lead a postback names; one still waiting in the event writer is written first. */
  private async findOrigin(
    id: string,
  ): Promise<{ kind: 'click'; row: StoredClick } | { kind: 'lead'; row: StoredLead } | null> {
    const origin = await this.storedEvent(async () => {
      const click = await this.db
        .selectFrom('tracker_clicks')
        .selectAll()
        .where('click_id', '=', id)
        .executeTakeFirst();
      if (click) return { kind: 'click' as const, row: click };
      const lead = await this.db.selectFrom('tracker_leads').selectAll().where('lead_id', '=', id).executeTakeFirst();
      return lead ? { kind: 'lead' as const, row: lead } : undefined;
    }, id);
    return origin ?? null;
  }

  /** What payout rule conditions see: the original click or lead as routing saw it. */
  private subjectOf(
    origin: { kind: 'click'; row: StoredClick } | { kind: 'lead'; row: StoredLead },
    vars: Record<string, string>,
  ): RoutingSubject {
    const { row } = origin;
    const fields: RoutingSubject['fields'] = {
      countryCode: row.country ?? undefined,
      device: row.device ?? undefined,
      platform: row.platform ?? undefined,
      browser: row.browser ?? undefined,
      campaignId: row.campaign_external_id,
    };
    if (origin.kind === 'lead') {
      Object.assign(fields, {
        regsCount: this.registrations.get(origin.row.email_hash) ?? 0,
        payoutsCount: 0,
        emailRate: emailRate(`x@${origin.row.email_domain}`),
        age: origin.row.age ?? undefined,
      });
    }
    return { fields, vars, now: new Date(row.created_at) };
  }

  private clickVars(
    campaign: CompiledCampaign,
    query: Readonly<Record<string, unknown>>,
  ): { vars: Record<string, string>; externalClickId: string | undefined } {
    const vars: Record<string, string> = {};
    let externalClickId = firstValue(query.external_id);
    for (const name in query) {
      if (!Object.hasOwn(query, name) || !DIRECT_VAR.test(name)) continue;
      const value = firstValue(query[name]);
      if (value !== undefined) vars[name] = value;
    }
    // The traffic source's parameters win over a var of the same name sent as it is.
    for (const parameter of campaign.parameters) {
      const value = firstValue(query[parameter.tsParameter]);
      if (value === undefined) continue;
      vars[parameter.internalToken] = value;
      if (externalClickId === undefined && EXTERNAL_CLICK_ID_PARAMETERS.has(parameter.tsParameter.toLowerCase())) {
        externalClickId = value;
      }
    }
    return { vars, externalClickId };
  }
}
