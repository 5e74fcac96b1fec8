import { getResource } from '@switchyard/domain';
import { useLookupRecords } from '../../../api/useLookup';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';
import { type CampaignUrlParameter, trackerCampaignUrl } from './campaignUrl';

const trafficSources = getResource('traffic-sources');

/** What `element.input` of a `campaign-url` element may carry. */
export interface CampaignUrlInput {
  /** The form field holding the traffic source; 'traffic_source_external_id' when absent. */
  trafficSourceField?: string;
}

/**
 * `campaign-url`: the tracker campaign's address as copy-text, made from the record's id and the
 * parameters of the traffic source chosen in the form (it follows a change of traffic source before the
 * save). Nothing is stored: the value is not part of the form's body.
 */
export function CampaignUrlControl(props: FormControlProps) {
  const { values, id } = useResourceFormContext();
  const { trafficSourceField = 'traffic_source_external_id', ...input } = (props.element.input ??
    {}) as CampaignUrlInput & Record<string, unknown>;
  const sources = useLookupRecords(trafficSources);
  const chosen = String(values[trafficSourceField] ?? '');
  const source = sources.find((record) => String(record[trafficSources.lookup.value]) === chosen);
  const parameters = Array.isArray(source?.parameters) ? (source.parameters as CampaignUrlParameter[]) : [];
  const url = id === undefined ? '' : trackerCampaignUrl(window.location.origin, String(id), parameters);
  return <CopyTextControl {...props} element={{ ...props.element, input }} value={url} />;
}
