import { z } from 'zod';
import { ZExternalIdRef, ZMoney, ZName, ZOptionalMacroUrl } from '../fields.js';
import { CAMPAIGN_TYPES, ZAllowedOrigins, ZRedirectMode } from '../redirect-modes.js';
import { REPORT_VAR_FILTERS } from '../reports.js';
import {
  ZBotClicksPerMinute,
  ZCostModel,
  ZPayoutRuleSets,
  ZPostbackEventEntries,
  ZUniqueBy,
  ZUniqueWindowHours,
} from './shared.js';
import { defineResource } from './types.js';

export const ZTrackerCampaignForm = z.object({
  name: ZName,
  traffic_source_external_id: ZExternalIdRef,
  flow_external_id: ZExternalIdRef,
  cost_model: ZCostModel,
  cost: ZMoney.default(0),
  bot_clicks_per_minute: ZBotClicksPerMinute,
  unique_by: ZUniqueBy,
  unique_window_hours: ZUniqueWindowHours,
  /** A paused campaign takes no clicks (as an archived one), and is enabled again as it was. */
  enabled: z.boolean().default(true),
  postback_events: ZPostbackEventEntries,
  payout_rule_sets: ZPayoutRuleSets,
  /** How visitors are sent on (redirect-modes.ts); a path may choose its own. */
  redirect_mode: ZRedirectMode.default('302'),
  /** Where a visitor goes when a `remote` target cannot be served; empty: the target, with no referrer. */
  fallback_url: ZOptionalMacroUrl,
  /** `direct`: the landing page records the click (tracking script, `POST /v1/clicks`). */
  type: z.enum(CAMPAIGN_TYPES).default('redirect'),
  /** The page origins the tracking script may record clicks from. */
  allowed_origins: ZAllowedOrigins,
  /** Var values whose clicks skip to the flow's last path group (the fallback): `{ var2: ['zone-7'] }`. */
  excluded: z.partialRecord(z.enum(REPORT_VAR_FILTERS), z.array(z.string().max(200)).max(5000)).default({}),
});
export type TTrackerCampaignForm = z.infer<typeof ZTrackerCampaignForm>;

export const trackerCampaigns = defineResource({
  name: 'tracker-campaigns',
  apiPath: 'tracker/campaigns',
  route: '/tracker/campaigns',
  idField: 'external_id',
  permission: { section: 'tracker', resource: 'campaign' },
  archivable: true,
  menuSection: 'tracker',
  lookup: { value: 'external_id', label: 'name' },
  form: ZTrackerCampaignForm,
  references: [
    { field: 'traffic_source_external_id', resource: 'traffic-sources' },
    { field: 'flow_external_id', resource: 'tracker-flows' },
    { field: 'postback_events.*.postback_event_external_id', resource: 'postback-events' },
    { field: 'payout_rule_sets.*.postback_event_external_id', resource: 'postback-events' },
  ],
});
