import type { ResourceName } from './resources/index.js';

// "the same campaign for another geo" is a daily task. These resources can be cloned with
// `POST /api/{resource}/{id}/clone` (the server's route and the lists' Clone action read this one list);
// a campaign of either side can be cloned with its flow.

export const CLONABLE: ReadonlySet<ResourceName> = new Set([
  'campaigns',
  'tracker-campaigns',
  'flows',
  'tracker-flows',
  'offers',
  'tracker-offers',
  'tracker-landers',
  'segments',
  'tracker-segments',
]);

/** Campaigns: cloned alone, or `with_flow`, which copies their flow too. */
export const CAMPAIGN_KINDS: ReadonlySet<ResourceName> = new Set(['campaigns', 'tracker-campaigns']);

/** The flow kind of each side's campaigns. */
export const FLOW_OF_CAMPAIGN: Partial<Record<ResourceName, ResourceName>> = {
  campaigns: 'flows',
  'tracker-campaigns': 'tracker-flows',
};
