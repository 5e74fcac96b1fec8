// What routing reads: the snapshot compile.ts makes from the stored config, replaced whole when config
// changes. The click, lead and postback paths read only these maps, arrays and compiled tests.
import type { BlockList } from 'node:net';
import type {
  CampaignType,
  ConditionNode,
  ConditionTest,
  RedirectMode,
  StatusMap,
  UniqueBy,
  UnknownStatusTreatment,
} from '@switchyard/domain';
import type { UrlTemplate } from './macros.js';
import type { CompiledOldLinks } from './old-links.js';

export type Side = 'tracker' | 'api';

export interface CompiledOffer {
  side: Side;
  externalId: string;
  name: string;
  url: UrlTemplate;
  /** Active and (API offers) enabled; an unavailable offer passes traffic to its backup. */
  available: boolean;
  dailyCap: number;
  capTimezone: string;
  backupExternalId: string | null;
  /** The countries the offer takes (ISO codes); null for every country. A visitor from another skips it. */
  countries: ReadonlySet<string> | null;
  payout: number;
  currency: string;
  emailWeights: Readonly<Record<string, number>>;
  affiliateNetworkExternalId: string | null;
}

export interface CompiledLander {
  externalId: string;
  name: string;
  url: UrlTemplate;
  /** Its workspace, whose domains alone serve its hosted files. */
  workspaceId: number | null;
}

export interface CompiledPath {
  id: string;
  name: string;
  weight: number;
  /** Regs Daily Cap (leads); 0 means none. */
  dailyCap: number;
  postbackDailyCap: number;
  subaff: string;
  /** Enabled offer rows with a positive weight (an API path has its one offer here, weight 1). */
  offers: readonly { offerExternalId: string; weight: number }[];
  /** Enabled rows naming active landers, with a positive weight. */
  landers: readonly { lander: CompiledLander; weight: number }[];
  /** How its visitors are sent on; null: as the campaign says. */
  redirectMode: RedirectMode | null;
}

export interface CompiledPathGroup {
  id: string;
  name: string;
  priority: number;
  /** The group's condition, compiled. */
  matches: ConditionTest;
  /** The tree it was compiled from, which a simulation traces. */
  condition: ConditionNode;
  /** Enabled paths with a positive weight. */
  paths: readonly CompiledPath[];
}

export type DisabledPathGroup = Pick<CompiledPathGroup, 'id' | 'name' | 'priority' | 'condition'>;

export interface TrafficSourceParameter {
  /** The query parameter the source sends (`zone`). */
  tsParameter: string;
  /** Where routing and reports see it: var1…var10. */
  internalToken: string;
}

export interface CompiledCampaign {
  side: Side;
  externalId: string;
  name: string;
  /** The workspace whose postback key may convert its clicks; null for a record of none. */
  workspaceId: number | null;
  /** The workspace its clicks or leads are stored in (a record of none: the default one). */
  eventWorkspaceId: number;
  flowExternalId: string;
  trafficSourceExternalId: string;
  parameters: readonly TrafficSourceParameter[];
  costModel: string;
  cost: number;
  /** The traffic source's URL parameter carrying each click's cost (the Auto model reads it). */
  costParameter: string | null;
  /** API campaigns: the X-Api-Key a partner sends with leads. */
  ingestToken: string | undefined;
  /** More events than this from one address in a minute are a bot; 0: no limit. */
  botClicksPerMinute: number;
  /** What makes two clicks the same visitor's (tracker campaigns; API campaigns judge leads by email). */
  uniqueBy: UniqueBy;
  /** A click is unique when no earlier click matched it within this long. */
  uniqueWindowMs: number;
  /** Enabled path groups, by priority. */
  groups: readonly CompiledPathGroup[];
  /** Var values (by var name) whose clicks skip to the last enabled group, the campaign's fallback. */
  excluded: ReadonlyMap<string, ReadonlySet<string>>;
  /** The flow's disabled path groups, which a simulation lists as skipped. */
  disabledGroups: readonly DisabledPathGroup[];
  /** §3.6: the campaign's postback events and what to tell the traffic source. */
  postbackEvents: readonly CampaignPostbackEvent[];
  /** §3.5: payout rule sets by postback event external id. */
  payoutRuleSets: ReadonlyMap<string, CompiledPayoutRuleSet>;
  /** The traffic source's postback URL for each postback event that has one. */
  trafficSourcePostbackUrls: ReadonlyMap<string, UrlTemplate>;
  /** How visitors are sent on, unless their path says otherwise (tracker campaigns; API ones: 302). */
  redirectMode: RedirectMode;
  /** Where a `remote` visitor goes when the target cannot be served; null: the target, without referrer. */
  fallbackUrl: UrlTemplate | null;
  /** `direct`: the landing page records the click (tracking script, POST /v1/clicks). */
  type: CampaignType;
  /** Origins (as browsers send `Origin`) the tracking script may record clicks from. */
  allowedOrigins: ReadonlySet<string>;
  /** SHA-256 of the campaign's click token (POST /v1/clicks), or null when it has none. */
  clickTokenHash: Buffer | null;
}

/** A postback event (Admin → Postback events): what incoming status values map to it. */
export interface CompiledPostbackEvent {
  externalId: string;
  name: string;
  /** Lowercased. */
  statusValues: readonly string[];
  /** Which status values mean pending, approved or rejected. */
  statusMap: StatusMap;
  /** What a status the mapping does not list becomes (refused, or pending; never approved). */
  unknownStatuses: UnknownStatusTreatment;
  isConversion: boolean;
  affiliateNetworkExternalId: string | null;
}

/** §3.6: one postback event entry of a campaign. */
export interface CampaignPostbackEvent {
  eventExternalId: string;
  isConversion: boolean;
  sendToTrafficSource: boolean;
  sendZeroConversions: boolean;
}

export interface CompiledPayoutRule {
  id: string;
  payout: number;
  priority: number;
  condition: ConditionNode;
}

/** §3.5: rules by priority (then as listed); the default when none matches. */
export interface CompiledPayoutRuleSet {
  eventExternalId: string;
  defaultPayout: number;
  rules: readonly CompiledPayoutRule[];
}

export interface SideMaps {
  campaigns: Map<string, CompiledCampaign>;
  /** Active, enabled landers (tracker side; none on the API side). */
  landers: ReadonlyMap<string, CompiledLander>;
  offers: Map<string, CompiledOffer>;
  /** Segments' conditions, compiled, by external id. */
  segments: Map<string, ConditionTest>;
}

/** Everything routing reads, for both sides; replaced whole when config changes. */
export interface RoutingSnapshot {
  tracker: SideMaps;
  api: SideMaps;
  /** Active postback events by external id (both sides). */
  postbackEvents: ReadonlyMap<string, CompiledPostbackEvent>;
  /** Affiliate networks that list where their postbacks come from, by external id. */
  postbackAddresses: ReadonlyMap<string, BlockList>;
  /** Records that could not be compiled (kind:external_id → why); they do not route. */
  problems: ReadonlyMap<string, string>;
  /** The links imported campaigns had on their old tracker (Keitaro's alias, Binom's key). */
  oldLinks: CompiledOldLinks;
}
