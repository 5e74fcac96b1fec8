// The old trackers' campaign links (store/old-links.ts) compiled with the routing: a click on one is a
// Map lookup, never a query. A link counts only while its campaign routes clicks (an active tracker
// campaign) in the workspace the link belongs to, so another workspace's domain never reaches it.
import type { OldTracker, StoredOldLink } from '../../store/old-link-rows.js';
import type { CompiledCampaign } from './compile.js';

export interface CompiledOldLinks {
  /** The campaign an old link (Keitaro's alias, Binom's key) of `workspaceId` names, if it routes. */
  campaign(workspaceId: number, tracker: OldTracker, key: string): string | undefined;
  /** The trackers a campaign was imported from: their click ids from before the move may convert on it. */
  trackersOf(campaignExternalId: string): ReadonlySet<OldTracker> | undefined;
}

const keyOf = (workspaceId: number, tracker: OldTracker, key: string) => `${workspaceId}\n${tracker}\n${key}`;

export function compileOldLinks(
  links: readonly StoredOldLink[],
  campaigns: ReadonlyMap<string, CompiledCampaign>,
): CompiledOldLinks {
  const byKey = new Map<string, string>();
  const trackers = new Map<string, Set<OldTracker>>();
  for (const link of links) {
    const campaign = campaigns.get(link.campaignExternalId);
    if (!campaign || campaign.workspaceId !== link.workspaceId) continue;
    byKey.set(keyOf(link.workspaceId, link.tracker, link.key), link.campaignExternalId);
    const set = trackers.get(link.campaignExternalId) ?? new Set<OldTracker>();
    set.add(link.tracker);
    trackers.set(link.campaignExternalId, set);
  }
  return {
    campaign: (workspaceId, tracker, key) => byKey.get(keyOf(workspaceId, tracker, key)),
    trackersOf: (campaignExternalId) => trackers.get(campaignExternalId),
  };
}
