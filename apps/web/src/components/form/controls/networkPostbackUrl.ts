/** The names an affiliate network fills in on its postbacks (ENTITIES.md), keyed by what Switchyard reads. */
export interface NetworkPostbackParameters {
  click_id?: unknown;
  payout?: unknown;
  status?: unknown;
  txid?: unknown;
}

/** The tracker's parameter for each value (issue 5's postback contract), in the order they are listed. */
const TRACKER_PARAMETERS = [
  ['clickid', 'click_id'],
  ['payout', 'payout'],
  ['status', 'status'],
  ['txid', 'txid'],
] as const;

/**
 * The address an operator gives an affiliate network (`GET /postback`): each of the tracker's parameters
 * carries the network's own macro for it, written `{name}`, which the network replaces when it calls.
 * A parameter whose macro name is empty is left out; the click id is always there.
 */
export function networkPostbackUrl(origin: string, names: NetworkPostbackParameters): string {
  const query = TRACKER_PARAMETERS.map(([parameter, key]) => {
    const name = String(names[key] ?? '').trim() || (key === 'click_id' ? 'clickid' : '');
    return name ? `${parameter}={${name}}` : '';
  })
    .filter(Boolean)
    .join('&');
  return `${origin}/postback?${query}`;
}
