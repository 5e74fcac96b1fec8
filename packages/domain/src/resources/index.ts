import { affiliateNetworks } from './affiliate-networks.js';
import { campaigns } from './campaigns.js';
import { domains } from './domains.js';
import { events } from './events.js';
import { flows } from './flows.js';
import { offers } from './offers.js';
import { postbackEvents } from './postback-events.js';
import { roles } from './roles.js';
import { segments } from './segments.js';
import { trackerCampaigns } from './tracker-campaigns.js';
import { trackerFlows } from './tracker-flows.js';
import { trackerLanders } from './tracker-landers.js';
import { trackerOffers } from './tracker-offers.js';
import { trackerSegments } from './tracker-segments.js';
import { trafficSources } from './traffic-sources.js';
import type { ResourceDefinition, ResourceName } from './types.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

export * from './affiliate-networks.js';
export * from './campaigns.js';
export * from './domains.js';
export * from './events.js';
export * from './flows.js';
export * from './offers.js';
export * from './postback-events.js';
export * from './roles.js';
export * from './segments.js';
export * from './shared.js';
export * from './tracker-campaigns.js';
export * from './tracker-flows.js';
export * from './tracker-landers.js';
export * from './tracker-offers.js';
export * from './tracker-segments.js';
export * from './traffic-sources.js';
export * from './types.js';
export * from './usage.js';
export * from './users.js';
export * from './workspaces.js';

/** Every resource, in the order of the side menu (§2.3). */
export const RESOURCES = [
  flows,
  segments,
  campaigns,
  offers,
  trackerFlows,
  trackerSegments,
  trackerCampaigns,
  trackerOffers,
  trackerLanders,
  trafficSources,
  affiliateNetworks,
  events,
  postbackEvents,
  workspaces,
  domains,
  users,
  roles,
] as const satisfies readonly ResourceDefinition[];

const byName = new Map<ResourceName, ResourceDefinition>(RESOURCES.map((resource) => [resource.name, resource]));

export function getResource(name: ResourceName): ResourceDefinition {
  const resource = byName.get(name);
  if (!resource) throw new Error(`Unknown resource ${name}`);
  return resource;
}
