import { getResource } from '@switchyard/domain';
import { useCallback } from 'react';
import { useLookupRecords } from '../../api/useLookup';
import { type CampaignUrlParameter, trackerCampaignUrl } from '../../components/form/controls/campaignUrl';

const trafficSources = getResource('traffic-sources');

/**
 * The campaign URL of a saved tracker campaign (`/c/{external_id}?…`, with its traffic source's
 * parameters), as the edit screen's `campaign-url` element shows it; '' while the record has no id.
 */
export function useTrackerCampaignUrl(): (campaign: Record<string, unknown> | undefined) => string {
  const sources = useLookupRecords(trafficSources);
  return useCallback(
    (campaign) => {
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
