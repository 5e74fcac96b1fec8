/** The macro a lander's URL carries its campaign's external id in. */
export const CAMPAIGN_ID_MACRO = '{campaign_id}';

/**
 * The link a lander sends its visitors on with (`GET /c/{campaign}/offer?clickid=…`, the server's lander
 * offer route): the offer chosen at the click. `{clickid}` stays as written, for the lander to fill with
 * the click id its own URL received; `campaign` is a campaign's external id, or `{campaign_id}` where no
 * one campaign is meant (a lander serves several). `base` is where `/c/…` is served.
 */
export function landerOfferUrl(base: string, campaign: string): string {
  const path = campaign === CAMPAIGN_ID_MACRO ? campaign : encodeURIComponent(campaign);
  return `${base}/c/${path}/offer?clickid={clickid}`;
}

/**
 * Where `/c/…` is served, read off a campaign URL the server gave a record (its public origin,
 * SWITCHYARD_PUBLIC_URL); this dashboard's origin when there is none.
 */
export function publicBaseOf(campaignUrl: unknown): string {
  const at = typeof campaignUrl === 'string' ? campaignUrl.lastIndexOf('/c/') : -1;
  return at > 0 ? (campaignUrl as string).slice(0, at) : window.location.origin;
}
