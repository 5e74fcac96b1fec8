import { getResource, type ListResponse, type ReportResponse, type ResourceName } from '@switchyard/domain';
import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { resourceKeys } from '../api/queryKeys';
import { reportKeys } from '../reports/useReport';
import { useCan } from '../shared/auth/useCan';

export type FirstCampaignStepKey =
  | 'trafficSource'
  | 'affiliateNetwork'
  | 'offer'
  | 'flow'
  | 'campaign'
  | 'domain'
  | 'firstClick'
  | 'firstConversion';

export interface FirstCampaignStep {
  key: FirstCampaignStepKey;
  done: boolean;
  /** Where to do it. */
  to: string;
}

/** The records a first tracker campaign needs, in the order they are made. */
const RECORD_STEPS: readonly { key: FirstCampaignStepKey; resource: ResourceName }[] = [
  { key: 'trafficSource', resource: 'traffic-sources' },
  { key: 'affiliateNetwork', resource: 'affiliate-networks' },
  { key: 'offer', resource: 'tracker-offers' },
  { key: 'flow', resource: 'tracker-flows' },
  { key: 'campaign', resource: 'tracker-campaigns' },
  { key: 'domain', resource: 'domains' },
];

/** One list page of one record: enough for its `total`. */
const COUNT_QUERY = { limit: 1 } as const;

/** How often a dashboard still waiting for a first click or conversion counts them again. */
const RECOUNT_MS = 15_000;

/** Every click and conversion of the workspace so far: a report over all time, its totals only. */
const ALL_TIME_REPORT = { group_by: 'campaign', limit: 1, page: 1 } as const;

/**
 * The "first campaign" checklist of the dashboard: each step done once its record
 * exists (a list's total, with limit 1) or, for the first click and conversion, once the workspace's
 * report counts one. Each read is the acting workspace's, as every API answers. Only the steps this user
 * may check are listed. `steps` is undefined until every read has answered, so nothing flickers.
 */
export function useFirstCampaignSteps(): { steps: FirstCampaignStep[] | undefined } {
  const campaigns = getResource('tracker-campaigns');
  const canSee = {
    trafficSource: useCan('general', 'traffic-source', 'get'),
    affiliateNetwork: useCan('general', 'affiliate-network', 'get'),
    offer: useCan('tracker', 'offer', 'get'),
    flow: useCan('tracker', 'flow', 'get'),
    campaign: useCan('tracker', 'campaign', 'get'),
    domain: useCan('general', 'domain', 'get'),
  };
  const canSeeReports = useCan('tracker', 'reports', 'get');
  const recordSteps = RECORD_STEPS.filter((step) => canSee[step.key as keyof typeof canSee]);

  const counts = useQueries({
    queries: recordSteps.map(({ resource }) => {
      const definition = getResource(resource);
      return {
        queryKey: resourceKeys.list(definition, { ...COUNT_QUERY, purpose: 'first-campaign' }),
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          api<ListResponse<unknown>>(definition.apiPath, { query: COUNT_QUERY, signal }),
        refetchOnMount: 'always' as const,
      };
    }),
  });
  const report = useQuery({
    queryKey: [...reportKeys.report(ALL_TIME_REPORT), 'first-campaign'],
    queryFn: ({ signal }) => api<ReportResponse>('reports', { query: ALL_TIME_REPORT, signal }),
    enabled: canSeeReports,
    refetchOnMount: 'always',
    // While a dashboard waits for its first click or conversion, it looks again now and then.
    refetchInterval: (query) => {
      const totals = query.state.data?.totals;
      return totals && totals.clicks > 0 && totals.conversions > 0 ? false : RECOUNT_MS;
    },
  });

  if (counts.some((count) => !count.isSuccess) || (canSeeReports && !report.isSuccess)) return { steps: undefined };
  const steps: FirstCampaignStep[] = recordSteps.map(({ key, resource }, index) => {
    const definition = getResource(resource);
    return { key, done: (counts[index]?.data?.total ?? 0) > 0, to: `${definition.route}/create` };
  });
  if (canSeeReports && report.data) {
    steps.push(
      // A click comes from a visitor sent to a campaign URL, which the campaign list shows.
      { key: 'firstClick', done: report.data.totals.clicks > 0, to: campaigns.route ?? '/tracker/campaigns' },
      // A conversion comes from the network's postback, whose URL the network's screen gives.
      {
        key: 'firstConversion',
        done: report.data.totals.conversions > 0,
        to: getResource('affiliate-networks').route ?? '/admin/affiliate-networks',
      },
    );
  }
  return { steps };
}
