// The campaign URL of a tracker campaign: built the same way by the server, which
// gives each record its `campaign_url` on its public origin, and by the dashboard, which follows a change
// of traffic source in the form before the save.

/** A traffic-source parameter as stored (§3.7). */
export interface CampaignUrlParameter {
  ts_parameter?: unknown;
  ts_token?: unknown;
  enabled?: unknown;
}

/**
 * The address a traffic source sends its clicks to (`GET /c/{tracker campaign external_id}?{the
 * traffic source's parameters}`): each enabled parameter as `ts_parameter={ts_token}`, joined by `&`. The
 * tokens stay as written (`{clickid}`): the traffic source fills them in.
 */
export function trackerCampaignUrl(
  origin: string,
  externalId: string,
  parameters: readonly CampaignUrlParameter[] | undefined,
): string {
  const query = (parameters ?? [])
    .filter((parameter) => parameter.enabled !== false && String(parameter.ts_parameter ?? '').trim() !== '')
    .map((parameter) => `${String(parameter.ts_parameter).trim()}=${String(parameter.ts_token ?? '').trim()}`)
    .join('&');
  return `${origin}/c/${encodeURIComponent(externalId)}?${query}`;
}
