// A Binom export: the lists Binom v2's API answers (`/public/api/v1/…`, the `api-key` header,
// https://docs.binom.org/api-v2.php), each record as its detail endpoint answers it, in one object.
// Binom publishes its JSON schema only inside each tracker (`/api/doc`); the shapes here follow what is
// public: the campaign's `cost`, `key`, `trafficSourceId`, `domainUuid` and `customRotation`
// (`defaultPaths`, `rules[].paths[].offers[].offerId`/`weight`) as a public client reads and writes them
// (github.com/pavelraiden/binom-api-encyclopedia, scripts/core/transform_campaign_data.py and
// scripts/automation/smart_offer_replacer.py), the criteria types from its `/rotation_rules` answer
// (docs/examples/responses/rotation_rules.json there), the traffic source's `postbackUrl` and `tokens`
// (`{ parameter, placeholder, name }`, docs/examples/responses/traffic_source_templates.json there) and
// the domains list (docs/examples/responses/domains.json there). Only the fields the importer reads are
// named, the rest are ignored, and every list and text is bounded.
import { z } from 'zod';
import { MAX_LIST, ZAmount, ZOldId, ZOptionalOldId, ZPayload, ZShare } from './imports.js';
import { VALIDATION_MESSAGES as M } from './messages.js';

const text = (max = 2048) => z.string().max(max, { error: M.tooLong });
const ZFlag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

/** A rule's criterion: a `/rotation_rules` type (`country`, `token_1`, …), its values, whether negated. */
export const ZBinomCriterion = z.object({
  type: text(64).min(1, { error: M.required }),
  /** `in` (is one of) or `not_in` (is none of); the UI's = and ≠. */
  operator: z.enum(['in', 'not_in']).default('in'),
  values: z.array(ZPayload).max(5000).default([]),
  /** For day of week and part of day: the zone the time is read in; the tracker's when absent. */
  timezone: text(64).nullish(),
});
export type BinomCriterion = z.infer<typeof ZBinomCriterion>;

/** One entry of a path's offers: an offer, a direct URL or another campaign. */
const ZBinomPathOffer = z.object({
  offerId: ZOptionalOldId,
  directUrl: text().nullish(),
  campaignId: ZOptionalOldId,
  weight: ZShare.default(100),
  enabled: ZFlag.default(true),
});

export const ZBinomPath = z.object({
  name: text(255).default(''),
  enabled: ZFlag.default(true),
  weight: ZShare.default(100),
  landings: z
    .array(z.object({ landingId: ZOldId, weight: ZShare.default(100), enabled: ZFlag.default(true) }))
    .max(1000)
    .default([]),
  offers: z.array(ZBinomPathOffer).max(1000).default([]),
});
export type BinomPath = z.infer<typeof ZBinomPath>;

export const ZBinomRule = z.object({
  name: text(255).default(''),
  enabled: ZFlag.default(true),
  /** All must hold (AND); within one, any value (OR): https://docs.binom.org/campaign-rules-v2.php */
  criteria: z.array(ZBinomCriterion).max(200).default([]),
  paths: z.array(ZBinomPath).max(200).default([]),
});
export type BinomRule = z.infer<typeof ZBinomRule>;

export const ZBinomCampaign = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  /** The campaign key of its links (`/click?key=…`). */
  key: text(255).default(''),
  trafficSourceId: ZOptionalOldId,
  domainUuid: text(64).nullish(),
  cost: z
    .object({
      model: text(32).default('CPC'),
      money: z.object({ amount: ZAmount.default(0), currency: text(8).default('USD') }).default({
        amount: 0,
        currency: 'USD',
      }),
      isAuto: ZFlag.default(false),
    })
    .default({ model: 'CPC', money: { amount: 0, currency: 'USD' }, isAuto: false }),
  /** `custom`/`normal` reads `customRotation`; a rotation template (`rotationId`) is not read. */
  distributionType: text(64).nullish(),
  rotationId: ZOptionalOldId,
  customRotation: z
    .object({
      defaultPaths: z.array(ZBinomPath).max(200).default([]),
      rules: z.array(ZBinomRule).max(500).default([]),
    })
    .nullish(),
  isDeleted: ZFlag.default(false),
});
export type BinomCampaign = z.infer<typeof ZBinomCampaign>;

export const ZBinomOffer = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  url: text().nullish(),
  affiliateNetworkId: ZOptionalOldId,
  payout: ZAmount.nullish(),
  isAutoPayout: ZFlag.default(false),
  currency: text(8).default('USD'),
  /** A country code, or empty for all. */
  country: text(8).nullish(),
  isDeleted: ZFlag.default(false),
});
export type BinomOffer = z.infer<typeof ZBinomOffer>;

export const ZBinomLanding = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  /** A remote landing page's address; a hosted one has a `location` (its files in the tracker) instead. */
  url: text().nullish(),
  location: text().nullish(),
  isDeleted: ZFlag.default(false),
});
export type BinomLanding = z.infer<typeof ZBinomLanding>;

export const ZBinomAffiliateNetwork = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  /** Appended to its offers' URLs. */
  offerUrlTemplate: text(1024).nullish(),
  /** Where its postbacks may come from. */
  postbackIpWhitelist: z.array(text(64)).max(1000).nullish(),
  /** Conversion statuses and their payouts: no equivalent here. */
  statusPayoutRelation: ZPayload,
  isDeleted: ZFlag.default(false),
});
export type BinomAffiliateNetwork = z.infer<typeof ZBinomAffiliateNetwork>;

const ZBinomToken = z.object({
  parameter: text(64).nullish(),
  placeholder: text(64).nullish(),
  name: text(255).nullish(),
});

export const ZBinomTrafficSource = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  postbackUrl: text().nullish(),
  /** The source's click id and the click's cost, each a URL parameter and the source's macro. */
  externalId: ZBinomToken.nullish(),
  cost: ZBinomToken.nullish(),
  /** `"1"` … `"30"`: the tokens t1 … t30. */
  tokens: z.record(text(8), ZBinomToken.nullable()).default({}),
  isDeleted: ZFlag.default(false),
});
export type BinomTrafficSource = z.infer<typeof ZBinomTrafficSource>;

export const ZBinomDomain = z.object({
  id: text(64).min(1, { error: M.required }),
  domain: text(253).min(1, { error: M.required }),
  isSsl: ZFlag.default(false),
  /** `blank_page`, `campaign` (then `campaignName` opens), … */
  indexPage: text(64).nullish(),
  campaignName: text(255).nullish(),
});
export type BinomDomain = z.infer<typeof ZBinomDomain>;

/** The export file: each list as the API answers it. */
export const ZBinomExport = z.object({
  campaigns: z.array(ZBinomCampaign).max(MAX_LIST).default([]),
  offers: z.array(ZBinomOffer).max(MAX_LIST).default([]),
  landings: z.array(ZBinomLanding).max(MAX_LIST).default([]),
  affiliate_networks: z.array(ZBinomAffiliateNetwork).max(MAX_LIST).default([]),
  traffic_sources: z.array(ZBinomTrafficSource).max(MAX_LIST).default([]),
  domains: z.array(ZBinomDomain).max(MAX_LIST).default([]),
});
export type BinomExport = z.infer<typeof ZBinomExport>;
