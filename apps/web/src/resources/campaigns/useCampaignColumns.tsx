import { getResource, type ResourceDefinition } from '@switchyard/domain';
import { useMemo } from 'react';
import { useLookup } from '../../api/useLookup';
import type { ListColumn } from '../../components/list/types';
import { useFormatMoney } from '../../shared/reporting/useFormatMoney';
import { nameColumn, type Row, referenceColumn, statusColumn, timestampColumns } from '../screens/columns';
import { CampaignUrlCell } from './CampaignUrlCell';
import { useTrackerCampaignUrl } from './useTrackerCampaignUrl';

const trafficSources = getResource('traffic-sources');

/** Campaigns: name, traffic source, flow, (campaign URL with Copy, cost model and cost), status, dates. */
export function useCampaignColumns(definition: ResourceDefinition): ListColumn<Row>[] {
  const isApi = definition.name === 'campaigns';
  const trafficSourceOptions = useLookup(trafficSources);
  const flowOptions = useLookup(getResource(isApi ? 'flows' : 'tracker-flows'));
  const formatMoney = useFormatMoney();
  const campaignUrlOf = useTrackerCampaignUrl();
  return useMemo(
    () => [
      nameColumn,
      referenceColumn('traffic_source_external_id', 'resources:fields.traffic_source', trafficSourceOptions),
      referenceColumn('flow_external_id', 'resources:fields.flow', flowOptions),
      ...(isApi
        ? []
        : [
            {
              accessor: 'campaign_url',
              label: 'resources:tracker-campaigns.fields.campaign_url',
              render: (campaign: Row) => <CampaignUrlCell url={campaignUrlOf(campaign)} />,
            },
            {
              accessor: 'cost',
              // Not "Cost": that is the period's spend among the figures.
              label: 'resources:fields.cost_model',
              // The model is shown by its code (CPC, CPM, …), as operators write it.
              render: (campaign: Row) => `${formatMoney(campaign.cost)} · ${String(campaign.cost_model ?? '')}`,
            },
          ]),
      statusColumn,
      ...timestampColumns,
    ],
    [isApi, trafficSourceOptions, flowOptions, formatMoney, campaignUrlOf],
  );
}
