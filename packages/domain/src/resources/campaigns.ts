import { z } from 'zod';
import { ZExternalIdRef, ZName } from '../fields.js';
import { ZBotClicksPerMinute, ZPayoutRuleSets, ZPostbackEventEntries } from './shared.js';
import { defineResource } from './types.js';

export const ZCampaignForm = z.object({
  name: ZName,
  traffic_source_external_id: ZExternalIdRef,
  flow_external_id: ZExternalIdRef,
  bot_clicks_per_minute: ZBotClicksPerMinute,
  /** A paused campaign takes no leads (as an archived one), and is enabled again as it was. */
  enabled: z.boolean().default(true),
  postback_events: ZPostbackEventEntries,
  payout_rule_sets: ZPayoutRuleSets,
});
export type TCampaignForm = z.infer<typeof ZCampaignForm>;

export const campaigns = defineResource({
  name: 'campaigns',
  apiPath: 'campaigns',
  route: '/admin/campaigns',
  idField: 'external_id',
  permission: { section: 'api', resource: 'campaign' },
  archivable: true,
  menuSection: 'api',
  lookup: { value: 'external_id', label: 'name' },
  form: ZCampaignForm,
  references: [
    { field: 'traffic_source_external_id', resource: 'traffic-sources' },
    { field: 'flow_external_id', resource: 'flows' },
    { field: 'postback_events.*.postback_event_external_id', resource: 'postback-events' },
    { field: 'payout_rule_sets.*.postback_event_external_id', resource: 'postback-events' },
  ],
});
