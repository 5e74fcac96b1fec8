// A Keitaro export (Admin API v1 lists, https://admin-api.docs.keitaro.io/) as an import plan.
// Streams become the campaign's flow, in the order Keitaro checks them: forced streams first (by
// position), then the regular ones (a `weight` campaign's filterless regular streams as one weighted
// split, each a path; otherwise each its own group, by position), the default stream last, with no
// condition. Anything with no equivalent is named in `leftOut` with the campaign it sat in.
import type { KeitaroExport, KeitaroStream, LeftOut } from '@switchyard/domain';
import { streamCondition } from './keitaro-filters.js';
import { keitaroPostbackParams, translateMacros } from './keitaro-macros.js';
import {
  CampaignSources,
  flowAndCampaign,
  type ImportPlan,
  type PlannedCampaign,
  type PlannedGroup,
  type PlannedRecord,
  plannedTrafficSource,
  type Resolve,
} from './plan.js';

const COST_MODELS: Record<string, string> = { CPC: 'CPC', CPM: 'CPM', CPA: 'CPA', REVSHARE: 'RevShare' };
const active = (state: string) => state === 'active';

function url(payload: unknown): string | null {
  return typeof payload === 'string' && payload.trim() !== '' ? payload.trim() : null;
}

export function keitaroPlan(data: KeitaroExport): ImportPlan {
  const leftOut: LeftOut[] = [];
  const shared: PlannedRecord[] = [];
  const out = (entry: Omit<LeftOut, 'campaign'>, campaign: { id: number; name: string } | null = null) =>
    leftOut.push({ ...entry, campaign: campaign ? { old_id: String(campaign.id), name: campaign.name } : null });
  const macros = (text: string, kind: string, id: number, name: string, campaign?: { id: number; name: string }) => {
    const { url: translated, unknown } = translateMacros(text);
    if (unknown.length > 0) {
      out(
        { kind, old_id: String(id), name, reason: `macros with no equivalent, kept as written: ${unknown.join(', ')}` },
        campaign ?? null,
      );
    }
    return translated;
  };

  for (const network of data.affiliate_networks) {
    shared.push({
      kind: 'affiliate-networks',
      oldKind: 'affiliate_network',
      oldId: String(network.id),
      name: network.name,
      build: () => ({
        name: network.name,
        offer_url_params: macros(network.offer_param ?? '', 'affiliate_network', network.id, network.name),
        // Its postback keeps the network's own macros (and, with Keitaro's format, its parameter names).
        postback_params: keitaroPostbackParams(network.postback_url),
        notes: network.notes ?? '',
      }),
    });
  }

  for (const source of data.traffic_sources) {
    const parameters: Record<string, unknown>[] = [];
    let costParameter = '';
    for (const [key, parameter] of Object.entries(source.parameters)) {
      const param = parameter?.name?.trim();
      if (!param) continue;
      const sub = /^sub_id_(\d{1,2})$/.exec(key);
      if (key === 'cost') costParameter = param;
      else if (sub && Number(sub[1]) >= 1 && Number(sub[1]) <= 10) {
        parameters.push({
          name: parameter?.alias?.trim() || key,
          ts_parameter: param,
          ts_token: parameter?.placeholder?.trim() ?? '',
          internal_token: `var${Number(sub[1])}`,
          index: Number(sub[1]),
        });
      } else {
        out({
          kind: 'traffic_source_parameter',
          old_id: String(source.id),
          name: `${source.name}: ${key}`,
          reason: 'only sub_id_1 … sub_id_10 and cost have an equivalent',
        });
      }
    }
    shared.push(
      plannedTrafficSource(
        { id: source.id, name: source.name, hasPostback: Boolean(source.postback_url) },
        parameters,
        costParameter,
        out,
      ),
    );
  }

  const offers = new Set<number>();
  for (const offer of data.offers) {
    const target = url(offer.action_payload);
    if (offer.offer_type !== 'external' || !target) {
      out({
        kind: 'offer',
        old_id: String(offer.id),
        name: offer.name,
        reason:
          offer.offer_type === 'external'
            ? 'it has no URL'
            : `a ${offer.offer_type} offer (files served by Keitaro) has no URL to send visitors to`,
      });
      continue;
    }
    offers.add(offer.id);
    shared.push({
      kind: 'tracker-offers',
      oldKind: 'offer',
      oldId: String(offer.id),
      name: offer.name,
      build: (resolve) => ({
        name: offer.name,
        url: macros(target, 'offer', offer.id, offer.name),
        affiliate_network_external_id:
          offer.affiliate_network_id == null ? null : resolve('affiliate_network', String(offer.affiliate_network_id)),
        payout: offer.payout_value,
        currency: offer.payout_currency.toUpperCase(),
        countries: offer.country,
        enabled: active(offer.state),
      }),
    });
  }

  const landers = new Set<number>();
  for (const landing of data.landing_pages) {
    const target = url(landing.action_payload);
    if (landing.landing_type !== 'external' || !target) {
      out({
        kind: 'landing_page',
        old_id: String(landing.id),
        name: landing.name,
        reason:
          landing.landing_type === 'external'
            ? 'it has no URL'
            : `a ${landing.landing_type} landing page: upload its files as a hosted lander`,
      });
      continue;
    }
    landers.add(landing.id);
    shared.push({
      kind: 'tracker-landers',
      oldKind: 'landing_page',
      oldId: String(landing.id),
      name: landing.name,
      build: () => ({
        name: landing.name,
        url: macros(target, 'landing_page', landing.id, landing.name),
        enabled: active(landing.state),
      }),
    });
  }

  const sources = new CampaignSources(new Set(data.traffic_sources.map((source) => source.id)), 'Keitaro');
  const campaigns: PlannedCampaign[] = [];
  for (const campaign of data.campaigns) {
    const streams = data.streams.filter((stream) => stream.campaign_id === campaign.id);
    const records: PlannedRecord[] = [];
    const note = (kind: string, id: number | null, name: string, reason: string) =>
      out({ kind, old_id: id === null ? null : String(id), name, reason }, campaign);

    const cost = COST_MODELS[campaign.cost_type.toUpperCase()];
    if (!cost)
      note('campaign_setting', campaign.id, `cost_type ${campaign.cost_type}`, 'no equivalent cost model; CPC is used');
    if (campaign.bind_visitors && campaign.bind_visitors !== 'off') {
      note('campaign_setting', campaign.id, 'bind_visitors', 'visitors are not bound to a stream here');
    }

    // One path per stream: its offers and landers by share; a redirect stream's URL becomes an offer.
    const pathOf = (stream: KeitaroStream) => {
      const streamName = stream.name || `Stream ${stream.id}`;
      let redirect = false;
      if (stream.schema === 'redirect') {
        const target = url(stream.action_payload);
        if (target) {
          redirect = true;
          records.push({
            kind: 'tracker-offers',
            oldKind: 'stream_url',
            oldId: String(stream.id),
            name: `${campaign.name} / ${streamName}`,
            build: () => ({
              name: `${campaign.name} / ${streamName}`,
              url: macros(target, 'stream', stream.id, streamName, campaign),
            }),
          });
        } else {
          note('stream', stream.id, streamName, 'a redirect stream with no URL: left out of the flow');
          return null;
        }
      } else if (stream.schema !== 'landings') {
        note(
          'stream',
          stream.id,
          streamName,
          `its action (${stream.action_type ?? stream.schema}) has no equivalent: left out of the flow`,
        );
        return null;
      }
      for (const row of stream.offers) {
        if (!offers.has(row.offer_id))
          note('stream_offer', row.offer_id, streamName, `offer ${row.offer_id} is not imported`);
      }
      for (const row of stream.landings) {
        if (!landers.has(row.landing_id))
          note('stream_landing', row.landing_id, streamName, `landing page ${row.landing_id} is not imported`);
      }
      return (resolve: Resolve, weight: number) => ({
        id: `ks-${stream.id}`,
        name: streamName,
        enabled: active(stream.state),
        weight,
        offers: redirect
          ? [{ id: `ks-${stream.id}-url`, offer_external_id: resolve('stream_url', String(stream.id)), weight: 100 }]
          : stream.offers.flatMap((row) => {
              const id = resolve('offer', String(row.offer_id));
              return id
                ? [
                    {
                      id: `ks-${stream.id}-o${row.offer_id}`,
                      offer_external_id: id,
                      weight: Math.round(row.share),
                      enabled: active(row.state),
                    },
                  ]
                : [];
            }),
        landers: stream.landings.flatMap((row) => {
          const id = resolve('landing_page', String(row.landing_id));
          return id
            ? [
                {
                  id: `ks-${stream.id}-l${row.landing_id}`,
                  lander_external_id: id,
                  weight: Math.round(row.share),
                  enabled: active(row.state),
                },
              ]
            : [];
        }),
      });
    };
    const conditionOf = (stream: KeitaroStream) =>
      JSON.stringify(
        streamCondition(stream, (name, reason) =>
          note('stream_filter', stream.id, `${stream.name || `Stream ${stream.id}`}: ${name}`, reason),
        ),
      );
    const byPosition = (a: KeitaroStream, b: KeitaroStream) => a.position - b.position || a.id - b.id;
    const forced = streams.filter((stream) => stream.type === 'forced').sort(byPosition);
    const regular = streams.filter((stream) => stream.type === 'regular').sort(byPosition);
    const defaults = streams.filter((stream) => stream.type === 'default').sort(byPosition);
    const groups: PlannedGroup[] = [];
    // A stream with nowhere to send visitors here (an action stream) makes no group: visitors go on to
    // the next, and the stream is named in left_out.
    const push = (group: PlannedGroup | null) => {
      if (group) groups.push(group);
    };
    const single = (stream: KeitaroStream, condition: string): PlannedGroup | null => {
      const path = pathOf(stream);
      if (!path) return null;
      return (resolve) => ({
        id: `ks-${stream.id}`,
        name: stream.name || `Stream ${stream.id}`,
        enabled: active(stream.state),
        condition,
        paths: [path(resolve, 100)],
      });
    };
    for (const stream of forced) push(single(stream, conditionOf(stream)));
    const split = campaign.type === 'weight' ? regular.filter((stream) => stream.filters.length === 0) : [];
    for (const stream of regular.filter((stream) => !split.includes(stream))) {
      if (campaign.type === 'weight') {
        note(
          'stream',
          stream.id,
          stream.name || `Stream ${stream.id}`,
          'a split-tested stream with filters: its own group, ahead of the split, instead of a share of it',
        );
      }
      push(single(stream, conditionOf(stream)));
    }
    const paths = split.flatMap((stream) => {
      const path = pathOf(stream);
      return path ? [{ stream, path }] : [];
    });
    if (paths.length > 0) {
      groups.push((resolve) => ({
        id: `kc-${campaign.id}-split`,
        name: 'Split',
        condition: JSON.stringify({ type: 'AllCondition' }),
        paths: paths.map(({ stream, path }) => path(resolve, Math.round(stream.weight))),
      }));
    }
    for (const [index, stream] of defaults.entries()) {
      if (index > 0)
        note('stream', stream.id, stream.name || `Stream ${stream.id}`, 'a second default stream is never reached');
      else push(single(stream, JSON.stringify({ type: 'AllCondition' })));
    }

    records.push(
      ...flowAndCampaign(
        { oldId: String(campaign.id), name: campaign.name, sourceOldId: sources.of(campaign.traffic_source_id) },
        groups,
        { cost_model: cost ?? 'CPC', cost: campaign.cost_value, enabled: active(campaign.state) },
      ),
    );
    // Its alias keeps `https://domain/{alias}` (and `?_dmn={alias}`) working once its domain points here.
    const alias = campaign.alias.trim();
    campaigns.push({
      oldId: String(campaign.id),
      name: campaign.name,
      records,
      oldLinks: alias ? [{ tracker: 'keitaro', key: alias }] : [],
    });
  }
  shared.push(...sources.standIn());
  const streamless = data.streams.filter(
    (stream) => !data.campaigns.some((campaign) => campaign.id === stream.campaign_id),
  );
  for (const stream of streamless) {
    out({
      kind: 'stream',
      old_id: String(stream.id),
      name: stream.name,
      reason: `its campaign ${stream.campaign_id} is not in the export`,
    });
  }
  const domains = data.domains.map((domain) => ({
    oldId: String(domain.id),
    name: domain.name,
    httpsOnly: domain.is_ssl,
    indexCampaignOldId: domain.default_campaign_id == null ? null : String(domain.default_campaign_id),
  }));
  return { shared, campaigns, domains, leftOut };
}
