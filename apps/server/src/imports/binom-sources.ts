// Binom's affiliate networks and traffic sources as the records campaigns share. A network keeps its
// postback IP whitelist, and reads postbacks by Binom's own parameter names (`cnv_id`, `payout`,
// `cnv_status`: https://docs.binom.org/postback-url.php) so a network's postback needs only the new
// address. A source's tokens t1 … t10 become its parameters var1 … var10
// (https://docs.binom.org/create-source-v2.php: parameter, placeholder, name), its cost token the cost
// parameter.
import {
  type BinomAffiliateNetwork,
  type BinomTrafficSource,
  type LeftOut,
  MAX_TRAFFIC_SOURCE_PARAMETERS,
} from '@switchyard/domain';
import { type PlannedRecord, plannedTrafficSource } from './plan.js';

type Out = (entry: Omit<LeftOut, 'campaign'>) => void;
type Macros = (text: string, kind: string, id: string, name: string) => string;

const BINOM_POSTBACK = { click_id: 'cnv_id', payout: 'payout', status: 'cnv_status', txid: 'txid' };

function filled(value: unknown): boolean {
  if (value == null || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

export function binomSources(
  networks: BinomAffiliateNetwork[],
  trafficSources: BinomTrafficSource[],
  out: Out,
  macros: Macros,
): PlannedRecord[] {
  const shared: PlannedRecord[] = [];
  for (const network of networks) {
    if (filled(network.statusPayoutRelation)) {
      out({
        kind: 'affiliate_network_setting',
        old_id: String(network.id),
        name: `${network.name}: status-payout relation`,
        reason: 'conversion statuses are set through postback events here; add them by hand',
      });
    }
    shared.push({
      kind: 'affiliate-networks',
      oldKind: 'affiliate_network',
      oldId: String(network.id),
      name: network.name,
      build: () => ({
        name: network.name,
        offer_url_params: macros(network.offerUrlTemplate ?? '', 'affiliate_network', String(network.id), network.name),
        postback_params: BINOM_POSTBACK,
        postback_ips: network.postbackIpWhitelist ?? [],
      }),
    });
  }

  for (const source of trafficSources) {
    const parameters: Record<string, unknown>[] = [];
    for (const [key, token] of Object.entries(source.tokens)) {
      const param = token?.parameter?.trim();
      if (!param) continue;
      const index = Number(key);
      if (!Number.isInteger(index) || index < 1 || index > MAX_TRAFFIC_SOURCE_PARAMETERS) {
        out({
          kind: 'traffic_source_token',
          old_id: String(source.id),
          name: `${source.name}: t${key} (${param})`,
          reason: `only tokens t1 … t${MAX_TRAFFIC_SOURCE_PARAMETERS} have an equivalent`,
        });
        continue;
      }
      parameters.push({
        name: token?.name?.trim() || param,
        ts_parameter: param,
        ts_token: token?.placeholder?.trim() ?? '',
        internal_token: `var${index}`,
        index,
      });
    }
    const costParameter = source.cost?.parameter?.trim() ?? '';
    if (source.externalId?.parameter?.trim()) {
      out({
        kind: 'traffic_source_token',
        old_id: String(source.id),
        name: `${source.name}: external ID (${source.externalId.parameter.trim()})`,
        reason: "the source's click id has no parameter of its own here; carry it in a free token by hand",
      });
    }
    shared.push(
      plannedTrafficSource(
        { id: source.id, name: source.name, hasPostback: url(source.postbackUrl) },
        parameters,
        costParameter,
        out,
      ),
    );
  }
  return shared;
}

function url(value: string | null | undefined): boolean {
  return typeof value === 'string' && value.trim() !== '';
}
