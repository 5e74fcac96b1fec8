import { getResource } from '@switchyard/domain';
import { useLookupRecords } from '../../../api/useLookup';
import { useResourceFormContext } from '../ResourceFormContext';
import type { FormControlProps } from '../types';
import { CopyTextControl } from './CopyTextControl';
import { CAMPAIGN_ID_MACRO, landerOfferUrl, publicBaseOf } from './landerOfferUrl';

const trackerCampaigns = getResource('tracker-campaigns');

/** What `element.input` of a `lander-offer-link` element may carry. */
export interface LanderOfferLinkInput {
  /** The link of the edited campaign (its id, on the origin of its `campaign_url`); without it, of any campaign. */
  ofRecord?: boolean;
}

/** The edited campaign's link, on the public origin of its campaign URL. */
function CampaignOfferLink(props: FormControlProps & { input: Record<string, unknown> }) {
  const { values, id } = useResourceFormContext();
  const url = id === undefined ? '' : landerOfferUrl(publicBaseOf(values.campaign_url), String(id));
  return <CopyTextControl {...props} element={{ ...props.element, input: props.input }} value={url} />;
}

/** Any campaign's link (`{campaign_id}`), on the public origin the campaigns' URLs use. */
function AnyCampaignOfferLink(props: FormControlProps & { input: Record<string, unknown> }) {
  const campaigns = useLookupRecords(trackerCampaigns);
  const url = landerOfferUrl(publicBaseOf(campaigns[0]?.campaign_url), CAMPAIGN_ID_MACRO);
  return <CopyTextControl {...props} element={{ ...props.element, input: props.input }} value={url} />;
}

/**
 * `lander-offer-link`: the link a lander sends its visitors on to the offer with, as
 * copy-text on the origin the campaign URLs are given on. Nothing is stored: the schema drops it.
 */
export function LanderOfferLinkControl(props: FormControlProps) {
  const { ofRecord = false, ...input } = (props.element.input ?? {}) as LanderOfferLinkInput & Record<string, unknown>;
  return ofRecord ? <CampaignOfferLink {...props} input={input} /> : <AnyCampaignOfferLink {...props} input={input} />;
}
