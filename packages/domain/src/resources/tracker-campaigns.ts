import { z } from 'zod';
import { ZExternalIdRef, ZMoney, ZName } from '../fields.js';
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
