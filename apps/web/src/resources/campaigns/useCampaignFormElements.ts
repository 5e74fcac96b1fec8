import {
  DEFAULT_BOT_CLICKS_PER_MINUTE,
  DEFAULT_UNIQUE_WINDOW_HOURS,
  getResource,
  MAX_UNIQUE_WINDOW_HOURS,
  type ResourceDefinition,
  UNIQUE_BY,
} from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useLookup } from '../../api/useLookup';
import type { FormElement, FormElementFormApi } from '../../components/form/types';
import {
  campaignPostbackEvents,
  readPayoutRuleSets,
  syncPayoutRuleSets,
} from '../../components/repeaters/payout-rules';
import { moneyElement, nameElement, readOnlyCopyElement } from '../screens/formElements';
import { useCostModelOptions } from '../screens/referenceOptions';
import type { FormMode } from '../screens/resourceScreens';
import { useEditedRecord } from '../screens/useEditedRecord';
import { useDeliveryElements } from './deliveryElements';

const trafficSources = getResource('traffic-sources');
const postbackEvents = getResource('postback-events');

/**
 * On create, a tracker campaign starts from its traffic source's default cost and cost model once the
 * source is chosen. `latest` keeps a slower answer for an earlier choice from winning.
 */
function prefillCostFromSource() {
  let latest: unknown = null;
  return (chosen: unknown, form: FormElementFormApi) => {
    latest = chosen;
    if (typeof chosen !== 'string' || chosen === '') return;
    api<{ default_cost?: unknown; cost_model?: unknown }>(
      `${trafficSources.apiPath}/${encodeURIComponent(chosen)}`,
    ).then(
      (source) => {
        if (latest !== chosen) return;
        if (typeof source.cost_model === 'string' && source.cost_model) form.setValue('cost_model', source.cost_model);
        if (typeof source.default_cost === 'number') form.setValue('cost', source.default_cost);
      },
      // Without the source the cost is simply left as it was, to be typed in.
      () => {},
    );
  };
}

/**
 * The campaign form. API campaigns show their ingest token once the server has made one;
 * tracker campaigns have a cost model and cost and show their campaign URL. The payout rule sets follow
 * the postback events (§3.5): choosing or removing an event adds or drops its set at once.
 */
export function useCampaignFormElements(definition: ResourceDefinition, mode: FormMode): readonly FormElement[] {
  const isApi = definition.name === 'campaigns';
  const trafficSourceOptions = useLookup(trafficSources);
  const flowOptions = useLookup(getResource(isApi ? 'flows' : 'tracker-flows'));
  const postbackEventOptions = useLookup(postbackEvents);
  const costModelOptions = useCostModelOptions();
  const hasIngestToken = Boolean(useEditedRecord(definition, mode)?.ingest_token);
  const deliveryElements = useDeliveryElements(mode === 'edit');
  const { t } = useTranslation();
  const uniqueByOptions = useMemo(
    () => UNIQUE_BY.map((by) => ({ value: by, label: t(`resources:tracker-campaigns.uniqueBy.${by}`) })),
    [t],
  );

  return useMemo(() => {
    const whenEditing = (...elements: FormElement[]) => (mode === 'edit' ? elements : []);
    const trackerOnly = (...elements: FormElement[]) => (isApi ? [] : elements);
    return [
      nameElement(),
      {
        name: 'traffic_source_external_id',
        type: 'select',
        label: 'resources:fields.traffic_source',
        placeholder: 'resources:campaigns.trafficSourcePlaceholder',
        options: trafficSourceOptions,
        createWhenEmpty: 'traffic-sources',
        required: true,
        ...(!isApi && mode === 'create' ? { onChange: prefillCostFromSource() } : {}),
      },
      {
        name: 'flow_external_id',
        type: 'select',
        label: 'resources:fields.flow',
        placeholder: 'resources:campaigns.flowPlaceholder',
        options: flowOptions,
        createWhenEmpty: isApi ? 'flows' : 'tracker-flows',
        required: true,
      },
      ...trackerOnly(
        {
          name: 'cost_model',
          type: 'radio-with-info',
          label: 'resources:fields.cost_model',
          options: costModelOptions,
          value: 'CPC',
        },
        { ...moneyElement('cost', 'resources:fields.cost'), labelDescription: 'resources:campaigns.costHint' },
      ),
      {
        // The click-rate bot check, per campaign.
        name: 'bot_clicks_per_minute',
        type: 'number',
        label: `resources:${definition.name}.fields.bot_clicks_per_minute`,
        labelDescription: `resources:${definition.name}.botClicksHint`,
        value: DEFAULT_BOT_CLICKS_PER_MINUTE,
        numberMin: 0,
        numberStep: 1,
        validate: { min_value: 0 },
      },
      ...trackerOnly(
        {
          name: 'unique_by',
          type: 'select',
          label: 'resources:tracker-campaigns.fields.unique_by',
          labelDescription: 'resources:tracker-campaigns.uniqueHint',
          options: uniqueByOptions,
          value: 'ip_ua',
          required: true,
        },
        {
          name: 'unique_window_hours',
          type: 'number',
          label: 'resources:tracker-campaigns.fields.unique_window_hours',
          value: DEFAULT_UNIQUE_WINDOW_HOURS,
          numberMin: 1,
          numberStep: 1,
          numberMax: MAX_UNIQUE_WINDOW_HOURS,
          validate: { min_value: 1 },
        },
      ),
      ...whenEditing(
        ...(isApi
          ? hasIngestToken
            ? [
                readOnlyCopyElement(
                  'ingest_token',
                  'resources:campaigns.fields.ingest_token',
                  'resources:campaigns.ingestTokenHint',
                ),
              ]
            : []
          : [
              {
                name: 'campaign_url',
                type: 'campaign-url',
                label: 'resources:tracker-campaigns.fields.campaign_url',
                labelDescription: 'resources:tracker-campaigns.campaignUrlHint',
                input: { dir: 'ltr' },
              } satisfies FormElement,
              {
                name: 'offer_link',
                type: 'lander-offer-link',
                label: 'resources:tracker-campaigns.fields.offer_link',
                labelDescription: 'resources:tracker-campaigns.offerLinkHint',
                input: { dir: 'ltr', ofRecord: true },
              } satisfies FormElement,
            ]),
      ),
      ...trackerOnly(...deliveryElements),
      {
        name: 'postback_events',
        type: 'postback-events-repeater',
        label: 'resources:fields.postback_events',
        labelDescription: 'resources:campaigns.postbackEventsHint',
        options: postbackEventOptions,
        value: [],
        onChange: (entries, form) => {
          const sets = readPayoutRuleSets(form.values.payout_rule_sets);
          const synced = syncPayoutRuleSets(sets, campaignPostbackEvents(entries, postbackEventOptions));
          if (synced !== sets) form.setValue('payout_rule_sets', synced);
        },
      },
      {
        name: 'payout_rule_sets',
        type: 'payout-rule-sets-repeater',
        label: 'resources:campaigns.fields.payout_rule_sets',
        labelDescription: 'resources:campaigns.payoutRuleSetsHint',
        options: postbackEventOptions,
        value: [],
        input: { flowType: isApi ? 'api' : 'tracker' },
      },
    ];
  }, [
    definition.name,
    isApi,
    mode,
    hasIngestToken,
    trafficSourceOptions,
    flowOptions,
    postbackEventOptions,
    costModelOptions,
    deliveryElements,
    uniqueByOptions,
  ]);
}
