// The traffic engine: routing compiled in memory and swapped whole on a config change,
// caps counted in memory (or Redis), events kept in the journal before they are answered and written
// to the database in batches. This file is its life: start, resync, recompile and close. Its parts are
// built in engine-setup.ts and its routing read in routing-load.ts; what a click, a lead and a postback
// do is in click.ts (and click-hops.ts), lead.ts and postback.ts.

import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  type ReplayedClick,
  type ReplayedLead,
  type SimulatedLead,
  type SimulatedVisitor,
  type SimulationAnswer,
  withoutNul,
} from '@switchyard/domain';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { LiveHub } from '../live/hub.js';
import type { Database } from '../store/schema.js';
import { type ClickAnswer, type ClickRequest, routeClick } from './click.js';
import { type ClickHop, hopForClick, landerClick, type OfferHop, offerForClick } from './click-hops.js';
import { type EngineOptions, engineSetup } from './engine-setup.js';
import type { TLeadInput } from './http/lead-input.js';
import type { RemoteOptions } from './http/remote-target.js';
import { type LeadAnswer, routeLead } from './lead.js';
import type { OutboundPostbacks } from './outbound.js';
import type { EngineLog, EngineParts } from './parts.js';
import { type PostbackAnswer, type PostbackRequest, takePostback } from './postback.js';
import { replayClick, replayLead } from './replay.js';
import { loadRouting } from './routing-load.js';
import { dayIn, offerCapKey } from './rules/caps.js';
import { LIVE_WEIGHTS_KIND, ROUTING_KINDS } from './rules/compile.js';
import type { CompiledCampaign, RoutingSnapshot, Side } from './rules/snapshot.js';
import { simulate } from './simulate.js';
import { loadNetworks } from './visitor/networks.js';
import { loadPlaces } from './visitor/places.js';
import { InMemoryUniqueClicks } from './visitor/uniques.js';
import { warmUpCaps, warmUpUniques } from './warm-up.js';

export type { ClickAnswer, ClickRequest, EngineLog, EngineOptions, LeadAnswer, PostbackAnswer, PostbackRequest };

/** Config changes that are not config records but change routing: the datacenter list. */
const BOT_PROTECTION_KIND = 'bot-protection';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class TrafficEngine {
  private readonly parts: EngineParts;
  private readonly journalDir: string | undefined;
  private compiling: Promise<void> | null = null;
  private stale = false;
  private readonly postbackLogDays: number;
  private pruneTimer: NodeJS.Timeout | null = null;
  private readonly cacheDir: string;
  private readonly db: Kysely<Database>;
  /** How the `remote` redirect mode fetches its targets. */
  readonly remote: RemoteOptions;

  constructor(db: Kysely<Database>, log: EngineLog, options: EngineOptions = {}, sqlite?: SQLite.Database) {
    const setup = engineSetup(db, log, options, sqlite);
    this.parts = setup.parts;
    this.journalDir = setup.journalDir;
    this.cacheDir = setup.cacheDir;
    this.postbackLogDays = setup.postbackLogDays;
    this.remote = setup.remote;
    this.db = db;
  }

  /** Live events of this node (and, with Redis, of the others). */
  get live(): LiveHub {
    return this.parts.live;
  }

  /** The queue of postbacks owed to traffic sources, and its worker. */
  get outbound(): OutboundPostbacks {
    return this.parts.outbound;
  }

  /**
   * Stores what the journal kept from an earlier run, compiles the routing, and counts what today's
   * stored events already spent of the caps; only then may anything be routed.
   */
  async start(): Promise<void> {
    const logCache = (message: string) => this.parts.log.info({ dir: this.cacheDir }, message);
    await loadNetworks(this.cacheDir, logCache);
    await loadPlaces(this.cacheDir, logCache);
    await this.replayJournal();
    await this.recompile();
    await warmUpCaps(this.parts);
    const uniques = await warmUpUniques(this.parts);
    if (uniques > 0) this.parts.log.info({ clicks: uniques }, 'click uniqueness warmed from the stored clicks');
    this.parts.outbound.start();
    await this.prunePostbackLog();
    this.pruneTimer = setInterval(() => {
      this.prunePostbackLog().catch((error: unknown) =>
        this.parts.log.error({ err: error }, 'postback log not pruned'),
      );
    }, PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  /** Deletes postback log rows older than the days it keeps; answers how many. */
  prunePostbackLog(): Promise<number> {
    const before = new Date(this.parts.now().getTime() - this.postbackLogDays * 24 * 60 * 60 * 1000);
    return this.parts.store.prunePostbackLog(before.toISOString());
  }

  /**
   * Recompiles everything and warms the cap counters again (where they are not counting): after a break
   * in the notices of other nodes' changes, or in a shared counter store that may have lost its counts.
   */
  async resync(): Promise<void> {
    await this.recompile();
    await warmUpCaps(this.parts);
    // A shared store that lost its keys is warmed again; one that kept them says so.
    await warmUpUniques(this.parts);
  }

  /** How many events an offer's daily cap has taken today, in the cap's time zone (the cap monitor). */
  capTaken(side: Side, offerExternalId: string, timeZone: string): Promise<number> {
    return this.parts.caps.count(offerCapKey(`${side}:${offerExternalId}`), dayIn(this.parts.now(), timeZone));
  }

  /** Events answered and not yet stored (the writer monitor). */
  get eventsWaiting(): number {
    return this.parts.events.pending;
  }

  /** The routing in force (tests and diagnostics). */
  get routing(): RoutingSnapshot {
    return this.parts.snapshot;
  }

  /**
   * Called when a config record is saved, archived or restored: routing is recompiled and swapped in;
   * the promise settles once the change is live. Changes during a compile trigger one more.
   */
  configChanged = (kind: string): Promise<void> => {
    if (!ROUTING_KINDS.has(kind) && kind !== BOT_PROTECTION_KIND && kind !== LIVE_WEIGHTS_KIND)
      return Promise.resolve();
    return this.recompile();
  };

  /**
   * The last click whose X-Forwarded-For came from a proxy that is not trusted: its peer and
   * when, on this node. The reports screen names SWITCHYARD_TRUST_PROXY while it is recent.
   */
  private untrustedProxy: { peer: string; at: number } | null = null;

  noteUntrustedProxy = (peer: string): void => {
    this.untrustedProxy = { peer, at: this.parts.now().getTime() };
  };

  /** The last untrusted proxy seen within `ms`, or null. */
  untrustedProxyWithin(ms: number): { peer: string; at: Date } | null {
    const seen = this.untrustedProxy;
    if (!seen || this.parts.now().getTime() - seen.at >= ms) return null;
    return { peer: seen.peer, at: new Date(seen.at) };
  }

  /** Whether a click on `campaignExternalId` would be routed (an active tracker campaign). */
  hasClickCampaign(campaignExternalId: string): boolean {
    return this.parts.snapshot.tracker.campaigns.has(campaignExternalId);
  }

  click(request: ClickRequest): Promise<ClickAnswer> {
    // Both click doors come through here: a NUL in a var or header is stripped, so the click is kept.
    return routeClick(this.parts, withoutNul(request));
  }

  /** The answer a click would get, with nothing recorded and no cap taken (a HEAD request). */
  lookAtClick(request: ClickRequest): Promise<ClickAnswer> {
    return routeClick(this.parts, withoutNul(request), false);
  }

  /** An active tracker campaign (its type, allowed origins and click token), or undefined. */
  trackerCampaign(campaignExternalId: string): CompiledCampaign | undefined {
    return this.parts.snapshot.tracker.campaigns.get(campaignExternalId);
  }

  /** A direct campaign's click (tracking script, POST /v1/clicks): routed, recorded, sent to the offer. */
  directClick(request: ClickRequest): Promise<ClickAnswer> {
    return routeClick(this.parts, withoutNul(request), true, true);
  }

  /** The second step of `double_meta` and `remote` for a stored click. */
  hopForClick(campaignExternalId: string, clickId: string): Promise<ClickHop | null> {
    return hopForClick(this.parts, campaignExternalId, clickId);
  }

  /** `record` false: a HEAD request (a link checker), which records nothing; nor does a bot's agent. */
  offerForClick(
    campaignExternalId: string,
    clickId: string,
    record = true,
    userAgent?: string,
    /** A hosted lander's `{offer:N}`. */
    position = 1,
  ): Promise<OfferHop | null> {
    return offerForClick(this.parts, campaignExternalId, clickId, record, userAgent, position);
  }

  /** The stored click a hosted lander's page is filled for, when it was sent to that lander. */
  landerClick(landerExternalId: string, clickId: string): ReturnType<typeof landerClick> {
    return landerClick(this.parts, landerExternalId, clickId);
  }

  lead(campaignExternalId: string, apiKey: string | undefined, parseBody: () => TLeadInput): Promise<LeadAnswer> {
    return routeLead(this.parts, campaignExternalId, apiKey, parseBody);
  }

  /** Where a visitor or lead would go on a campaign of `workspaceId`, nothing recorded. */
  simulate(
    side: Side,
    campaignExternalId: string,
    workspaceId: number,
    input: SimulatedVisitor | SimulatedLead,
  ): Promise<SimulationAnswer | null> {
    return simulate(this.parts, side, campaignExternalId, workspaceId, input);
  }

  /** A stored click of `workspaceId` routed again as a simulation; null when it is not there. */
  replayClick(
    clickId: string,
    workspaceId: number,
    inWorkspace: (campaignExternalId: string) => Promise<boolean>,
  ): Promise<ReplayedClick | null> {
    return replayClick(this.parts, clickId, workspaceId, inWorkspace);
  }

  /** A stored lead of `workspaceId` routed again as a simulation; null when it is not there. */
  replayLead(
    leadId: string,
    workspaceId: number,
    inWorkspace: (campaignExternalId: string) => Promise<boolean>,
  ): Promise<ReplayedLead | null> {
    return replayLead(this.parts, leadId, workspaceId, inWorkspace);
  }

  postback(request: PostbackRequest): Promise<PostbackAnswer> {
    return takePostback(this.parts, request);
  }

  /**
   * Keeps the events routed so far (one journal write); an answer goes out only after it. False when
   * the journal could not take them: their requests are answered 503.
   */
  commitEvents(): boolean {
    return this.parts.events.commit();
  }

  /** Whether the event of commit `event` (a click's or lead's answer) was kept. */
  kept(event: number): boolean {
    return this.parts.events.kept(event);
  }

  /** Writes every waiting event now. */
  flush(): Promise<void> {
    return this.parts.events.flush();
  }

  /** Makes every commit so far, by any connection, survive a power loss (on SQLite, off the event loop). */
  durable = (): Promise<void> => this.parts.events.durable();

  async close(): Promise<void> {
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.compiling;
    await this.parts.outbound.close();
    await this.parts.events.close();
    this.parts.live.close();
  }

  private async replayJournal(): Promise<void> {
    if (!this.journalDir) return;
    const { log } = this.parts;
    const replayed = await this.parts.store.replayJournal(this.journalDir, log);
    if (replayed.files.length === 0) return;
    await this.parts.events.durable();
    // Segments whose events ClickHouse did not take are replayed again at the next start.
    if (!replayed.unsent) for (const file of replayed.files) rmSync(file, { force: true });
    log.info(
      {
        segments: replayed.files.length,
        events: replayed.events,
        stored: replayed.stored,
        dir: path.resolve(this.journalDir),
      },
      'event journal replayed: events answered before the last stop are stored',
    );
  }

  private recompile(): Promise<void> {
    this.stale = true;
    this.compiling ??= (async () => {
      try {
        while (this.stale) {
          this.stale = false;
          const { snapshot, bots } = await loadRouting(this.parts.store, this.db);
          this.parts.snapshot = snapshot;
          this.parts.bots = bots;
          if (this.parts.uniques instanceof InMemoryUniqueClicks) {
            let longest = 0;
            for (const campaign of this.parts.snapshot.tracker.campaigns.values())
              longest = Math.max(longest, campaign.uniqueWindowMs);
            this.parts.uniques.retainMs = longest;
          }
          for (const [record, problem] of this.parts.snapshot.problems) {
            this.parts.log.warn({ record, problem }, 'config record not used for routing');
          }
        }
      } catch (error) {
        this.parts.log.error({ err: error }, 'routing not recompiled; the previous routing stays in force');
      } finally {
        this.compiling = null;
      }
    })();
    return this.compiling;
  }
}
