import { type CampaignUrlParameter, getResource, trackerCampaignUrl } from '@switchyard/domain';
import { useCallback } from 'react';
import { useLookupRecords } from '../../api/useLookup';

const trafficSources = getResource('traffic-sources');

/**
 * The campaign URL of a saved tracker campaign: the one the server gives the record, on its public origin
 * (`/c/{external_id}?…`, with its traffic source's parameters); made here the same way while a record
 * has none. '' while the record has no id.
 */
export function useTrackerCampaignUrl(): (campaign: Record<string, unknown> | undefined) => string {
  const sources = useLookupRecords(trafficSources);
  return useCallback(
    (campaign) => {
      if (typeof campaign?.campaign_url === 'string' && campaign.campaign_url !== '') return campaign.campaign_url;
      const externalId = campaign?.external_id;
      if (typeof externalId !== 'string' || externalId === '') return '';
      const chosen = String(campaign?.traffic_source_external_id ?? '');
      const source = sources.find((record) => String(record[trafficSources.lookup.value]) === chosen);
      const parameters = Array.isArray(source?.parameters) ? (source.parameters as CampaignUrlParameter[]) : [];
      return trackerCampaignUrl(window.location.origin, externalId, parameters);
    },
    [sources],
  );
}
