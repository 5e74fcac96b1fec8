// The old trackers' campaign links (store/old-links.ts) compiled with the routing: a click on one is a
// Map lookup, never a query. A link counts only while its campaign routes clicks (an active tracker
// campaign) in the workspace the link belongs to, so another workspace's domain never reaches it.
import type { OldTracker, StoredOldLink } from '../../store/old-link-rows.js';
import type { CompiledCampaign } from './snapshot.js';

export interface CompiledOldLinks {
  /** The campaign an old link (Keitaro's alias, Binom's key) of `workspaceId` names, if it routes. */
  campaign(workspaceId: number, tracker: OldTracker, key: string): string | undefined;
  /** The trackers a campaign was imported from: their click ids from before the move may convert on it. */
  trackersOf(campaignExternalId: string): ReadonlySet<OldTracker> | undefined;
  /** When a campaign was first imported from a tracker (ms), as its links say. */
  importedAt(campaignExternalId: string, tracker: OldTracker): number | undefined;
}

const keyOf = (workspaceId: number, tracker: OldTracker, key: string) => `${workspaceId}\n${tracker}\n${key}`;

export function compileOldLinks(
  links: readonly StoredOldLink[],
  campaigns: ReadonlyMap<string, CompiledCampaign>,
): CompiledOldLinks {
  const byKey = new Map<string, string>();
  const trackers = new Map<string, Set<OldTracker>>();
  const imported = new Map<string, number>();
  for (const link of links) {
    const campaign = campaigns.get(link.campaignExternalId);
    if (!campaign || campaign.workspaceId !== link.workspaceId) continue;
    byKey.set(keyOf(link.workspaceId, link.tracker, link.key), link.campaignExternalId);
    const set = trackers.get(link.campaignExternalId) ?? new Set<OldTracker>();
    set.add(link.tracker);
    trackers.set(link.campaignExternalId, set);
    const at = Date.parse(link.importedAt);
    const importKey = `${link.campaignExternalId}\n${link.tracker}`;
    if (Number.isFinite(at)) imported.set(importKey, Math.min(at, imported.get(importKey) ?? at));
  }
  return {
    campaign: (workspaceId, tracker, key) => byKey.get(keyOf(workspaceId, tracker, key)),
    trackersOf: (campaignExternalId) => trackers.get(campaignExternalId),
    importedAt: (campaignExternalId, tracker) => imported.get(`${campaignExternalId}\n${tracker}`),
  };
}
