// Importing another tracker's records (`POST /api/imports`, `GET /api/imports/{id}`).
// What is asked: a live tracker (its URL and API key) or an export file, the API's lists in one object.
// The Keitaro shapes follow its Admin API v1 (https://admin-api.docs.keitaro.io/); only the fields the
// importer reads are named, the rest are ignored, and every list and text is bounded.
import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';

export const IMPORT_SOURCES = ['keitaro', 'binom'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Permission: `/tracker/import/create` runs one (with the rights to create what it creates), `get` reads. */
export const IMPORT_PERMISSION = { section: 'tracker', resource: 'import' } as const;

export const MAX_LIST = 20_000;
const MAX_PAYLOAD_CHARS = 100_000;
const MAX_PAYLOAD_DEPTH = 8;

export const ZOldId = z.union([
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, { error: M.invalidValue })
    .transform(Number),
]);
export const ZOptionalOldId = z.union([ZOldId, z.null()]).optional();
const text = (max = 2048) => z.string().max(max, { error: M.tooLong });
export const ZAmount = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d{1,12}(\.\d{1,8})?$/)
      .transform(Number),
  ])
  .pipe(z.number().finite({ error: M.invalidNumber }).min(0, { error: M.notNegative }).max(1e9, { error: M.tooLarge }));
export const ZShare = z.number({ error: M.invalidNumber }).finite().min(0, { error: M.notNegative }).max(1_000_000);

/**
 * Whether a value is small: at most `MAX_PAYLOAD_DEPTH` levels and `MAX_PAYLOAD_CHARS` characters of
 * text in all. Walked without recursion, so a hostile nesting cannot exhaust the stack.
 */
function isSmall(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let chars = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') chars += item.length;
    else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_PAYLOAD_DEPTH) return false;
      for (const [key, child] of Object.entries(item)) {
        chars += key.length;
        stack.push([child, depth + 1]);
      }
    } else chars += 8;
    if (chars > MAX_PAYLOAD_CHARS) return false;
  }
  return true;
}

/** A filter's payload as read: anything small; the mapping reads the shapes it knows. */
export const ZPayload = z.unknown().refine(isSmall, { error: M.tooLong }).optional();

export const ZKeitaroFilter = z.object({
  name: text(64).min(1, { error: M.required }),
  mode: z.enum(['accept', 'reject']).default('accept'),
  payload: ZPayload,
});
export type KeitaroFilter = z.infer<typeof ZKeitaroFilter>;

export const ZKeitaroStream = z.object({
  id: ZOldId,
  campaign_id: ZOldId,
  type: z.enum(['forced', 'regular', 'default']).default('regular'),
  name: text(255).default(''),
  position: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  weight: ZShare.default(100),
  state: text(32).default('active'),
  /** `landings` (landers and offers), `redirect` (a URL), `action` (show text, 404, …). */
  schema: text(32).default('landings'),
  action_type: text(64).nullish(),
  action_payload: ZPayload,
  filter_or: z.boolean().default(false),
  filters: z.array(ZKeitaroFilter).max(200).default([]),
  offers: z
    .array(z.object({ offer_id: ZOldId, share: ZShare.default(100), state: text(32).default('active') }))
    .max(1000)
    .default([]),
  landings: z
    .array(z.object({ landing_id: ZOldId, share: ZShare.default(100), state: text(32).default('active') }))
    .max(1000)
    .default([]),
});
export type KeitaroStream = z.infer<typeof ZKeitaroStream>;

export const ZKeitaroCampaign = z.object({
  id: ZOldId,
  alias: text(255).default(''),
  name: text(255).min(1, { error: M.required }),
  /** `position`: streams in order; `weight`: forced ones first, then a split of the regular ones. */
  type: z.enum(['position', 'weight']).default('position'),
  state: text(32).default('active'),
  cost_type: text(32).default('CPC'),
  cost_value: ZAmount.default(0),
  traffic_source_id: ZOptionalOldId,
  domain_id: ZOptionalOldId,
  bind_visitors: z.union([z.boolean(), text(32), z.null()]).optional(),
});
export type KeitaroCampaign = z.infer<typeof ZKeitaroCampaign>;

export const ZKeitaroOffer = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  action_type: text(64).default('http'),
  action_payload: ZPayload,
  offer_type: text(32).default('external'),
  affiliate_network_id: ZOptionalOldId,
  payout_value: ZAmount.default(0),
  payout_currency: text(8).default('USD'),
  country: z.array(text(8)).max(300).default([]),
  state: text(32).default('active'),
});
export type KeitaroOffer = z.infer<typeof ZKeitaroOffer>;

export const ZKeitaroLanding = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  action_payload: ZPayload,
  landing_type: text(32).default('external'),
  state: text(32).default('active'),
});
export type KeitaroLanding = z.infer<typeof ZKeitaroLanding>;

export const ZKeitaroAffiliateNetwork = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  offer_param: text(1024).nullish(),
  postback_url: text().nullish(),
  notes: text(4000).nullish(),
  state: text(32).default('active'),
});
export type KeitaroAffiliateNetwork = z.infer<typeof ZKeitaroAffiliateNetwork>;

const ZKeitaroParameter = z.object({
  name: text(64).nullish(),
  placeholder: text(64).nullish(),
  alias: text(255).nullish(),
});

export const ZKeitaroTrafficSource = z.object({
  id: ZOldId,
  name: text(255).min(1, { error: M.required }),
  postback_url: text().nullish(),
  /** `keyword`, `cost`, `sub_id_1` … each the URL parameter's name, the source's macro and a label. */
  parameters: z.record(text(64), ZKeitaroParameter.nullable()).default({}),
  state: text(32).default('active'),
});
export type KeitaroTrafficSource = z.infer<typeof ZKeitaroTrafficSource>;

export const ZKeitaroDomain = z.object({
  id: ZOldId,
  name: text(253).min(1, { error: M.required }),
  is_ssl: z.boolean().default(false),
  default_campaign_id: ZOptionalOldId,
  state: text(32).default('active'),
});
export type KeitaroDomain = z.infer<typeof ZKeitaroDomain>;

/** The export file: each list as the Admin API answers it. */
export const ZKeitaroExport = z.object({
  campaigns: z.array(ZKeitaroCampaign).max(MAX_LIST).default([]),
  streams: z.array(ZKeitaroStream).max(MAX_LIST).default([]),
  offers: z.array(ZKeitaroOffer).max(MAX_LIST).default([]),
  landing_pages: z.array(ZKeitaroLanding).max(MAX_LIST).default([]),
  affiliate_networks: z.array(ZKeitaroAffiliateNetwork).max(MAX_LIST).default([]),
  traffic_sources: z.array(ZKeitaroTrafficSource).max(MAX_LIST).default([]),
  domains: z.array(ZKeitaroDomain).max(MAX_LIST).default([]),
});
export type KeitaroExport = z.infer<typeof ZKeitaroExport>;

const ZTrackerUrl = z
  .string({ error: M.required })
  .trim()
  .max(2048, { error: M.tooLong })
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), { error: M.invalidUrl });

/** `POST /api/imports`: a live tracker, or its export file (`file`). */
export const ZImportRequest = z.union([
  z.object({
    from: z.enum(IMPORT_SOURCES),
    url: ZTrackerUrl,
    api_key: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(512, { error: M.tooLong }),
  }),
  z.object({ from: z.enum(IMPORT_SOURCES), file: z.record(z.string(), z.unknown()) }),
]);
export type ImportRequest = z.infer<typeof ZImportRequest>;

export const ZImportQuery = z.object({
  dry_run: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

const ZOldRecord = z.object({ old_id: z.string(), name: z.string() });

/** One record written (or that would be): its kind here, its old kind and id there, its new id. */
export const ZImportedRecord = z.object({
  kind: z.string(),
  old_kind: z.string(),
  old_id: z.string(),
  name: z.string(),
  /** Null in a dry run of a record not created yet. */
  new_id: z.string().nullable(),
  action: z.enum(['created', 'updated', 'unchanged']),
  campaign: ZOldRecord.nullable(),
});
export type ImportedRecord = z.infer<typeof ZImportedRecord>;

/** Something not brought over (a record, or a filter or setting of one), and why. */
export const ZLeftOut = z.object({
  kind: z.string(),
  old_id: z.string().nullable(),
  name: z.string(),
  reason: z.string(),
  campaign: ZOldRecord.nullable(),
});
export type LeftOut = z.infer<typeof ZLeftOut>;

const ZCount = z.number().int().min(0);

export const ZImportAnswer = z.object({
  /** Null for a dry run: nothing is kept. */
  id: z.number().int().nullable(),
  from: z.enum(IMPORT_SOURCES),
  dry_run: z.boolean(),
  status: z.enum(['running', 'done', 'failed']),
  progress: z.object({ done: ZCount, total: ZCount }),
  summary: z.object({ created: ZCount, updated: ZCount, unchanged: ZCount, left_out: ZCount }),
  records: z.array(ZImportedRecord),
  left_out: z.array(ZLeftOut),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportAnswer = z.infer<typeof ZImportAnswer>;
