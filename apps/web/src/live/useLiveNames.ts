import { can, getResource, type ResourceName } from '@switchyard/domain';
import { useMemo } from 'react';
import { type LookupRecord, useLookupRecords } from '../api/useLookup';
import { useCurrentUser } from '../shared/auth/useCurrentUser';

export interface LiveCampaignOption {
  value: string;
  label: string;
}

export interface LiveNames {
  campaign: (externalId: string) => string;
  offer: (externalId: string) => string;
  pathGroup: (id: string) => string;
  /** The workspace's campaigns the user may read, tracker ones first, for the campaign filter. */
  campaignGroups: { kind: 'tracker' | 'api'; options: LiveCampaignOption[] }[];
}

function useReadable(name: ResourceName): LookupRecord[] {
  const definition = getResource(name);
  const user = useCurrentUser();
  const { section, resource } = definition.permission;
  return useLookupRecords(definition, { enabled: can(user, section, resource, 'get') });
}

/** Each path group's name by its id, read off the flows (a path group lives inside its flow). */
function pathGroupNames(flows: LookupRecord[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const flow of flows) {
    const groups = Array.isArray(flow.path_groups) ? (flow.path_groups as { id?: unknown; name?: unknown }[]) : [];
    for (const group of groups) {
      if (typeof group.id === 'string' && typeof group.name === 'string' && group.name) names.set(group.id, group.name);
    }
  }
  return names;
}

const optionsOf = (records: LookupRecord[]): LiveCampaignOption[] =>
  records
    .filter((record) => typeof record.external_id === 'string')
    .map((record) => ({ value: String(record.external_id), label: String(record.name ?? record.external_id) }));

/**
 * Names for the ids a live message carries (campaigns, offers, path groups; tracker and API alike), from the same
 * lookups the forms load; an id the user may not read, or one not yet loaded, shows as itself.
 */
export function useLiveNames(): LiveNames {
  const trackerCampaigns = useReadable('tracker-campaigns');
  const apiCampaigns = useReadable('campaigns');
  const trackerOffers = useReadable('tracker-offers');
  const apiOffers = useReadable('offers');
  const trackerFlows = useReadable('tracker-flows');
  const apiFlows = useReadable('flows');
  return useMemo(() => {
    const pathGroups = pathGroupNames([...apiFlows, ...trackerFlows]);
    const nameMap = (records: LookupRecord[]) =>
      new Map(optionsOf(records).map((option) => [option.value, option.label] as const));
    const campaigns = nameMap([...apiCampaigns, ...trackerCampaigns]);
    const offers = nameMap([...apiOffers, ...trackerOffers]);
    return {
      campaign: (id) => campaigns.get(id) ?? id,
      offer: (id) => offers.get(id) ?? id,
      pathGroup: (id) => pathGroups.get(id) ?? id,
      campaignGroups: [
        { kind: 'tracker' as const, options: optionsOf(trackerCampaigns) },
        { kind: 'api' as const, options: optionsOf(apiCampaigns) },
      ].filter((group) => group.options.length > 0),
    };
  }, [trackerCampaigns, apiCampaigns, trackerOffers, apiOffers, trackerFlows, apiFlows]);
}
