// A Binom export (its v2 API's records, packages/domain imports-binom.ts) as an import plan. A campaign's
// rules become its flow's path groups in the order Binom checks them (top first), each its paths by
// weight; the default paths come last, with no condition (https://docs.binom.org/campaign-paths.php).
// A path's direct URL becomes an offer of the campaign's own. Anything with no equivalent is named in
// `leftOut` with the campaign it sat in.
import type { BinomCampaign, BinomExport, BinomPath, LeftOut } from '@switchyard/domain';
import { ruleCondition } from './binom-filters.js';
import { translateBinomTokens } from './binom-macros.js';
import { binomSources } from './binom-sources.js';
import {
  CampaignSources,
  flowAndCampaign,
  type ImportPlan,
  type PlannedCampaign,
  type PlannedGroup,
  type PlannedRecord,
  type Resolve,
} from './plan.js';

const COST_MODELS: Record<string, string> = { CPC: 'CPC', CPM: 'CPM', CPA: 'CPA', REVSHARE: 'RevShare' };
const ALL = JSON.stringify({ type: 'AllCondition' });

type Owner = { id: number; name: string } | null;

function url(value: string | null | undefined): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

export function binomPlan(data: BinomExport): ImportPlan {
  const leftOut: LeftOut[] = [];
  const out = (entry: Omit<LeftOut, 'campaign'>, campaign: Owner = null) =>
    leftOut.push({ ...entry, campaign: campaign ? { old_id: String(campaign.id), name: campaign.name } : null });
  const macros = (text: string, kind: string, id: string, name: string, campaign: Owner = null) => {
    const { url: translated, unknown } = translateBinomTokens(text);
    if (unknown.length > 0) {
      out(
        { kind, old_id: id, name, reason: `tokens with no equivalent, kept as written: ${unknown.join(', ')}` },
        campaign,
      );
    }
    return translated;
  };
  const live = <T extends { isDeleted: boolean; id: number | string; name: string }>(list: T[], kind: string) =>
    list.filter((item) => {
      if (item.isDeleted) out({ kind, old_id: String(item.id), name: item.name, reason: 'it is deleted in Binom' });
      return !item.isDeleted;
    });

  const shared: PlannedRecord[] = binomSources(
    live(data.affiliate_networks, 'affiliate_network'),
    live(data.traffic_sources, 'traffic_source'),
    out,
    macros,
  );

  const offers = new Set<number>();
  for (const offer of live(data.offers, 'offer')) {
    const target = url(offer.url);
    if (!target) {
      out({ kind: 'offer', old_id: String(offer.id), name: offer.name, reason: 'it has no URL' });
      continue;
    }
    if (offer.isAutoPayout) {
      out({
        kind: 'offer_setting',
        old_id: String(offer.id),
        name: `${offer.name}: auto payout`,
        reason: 'the payout the postback sends is used here anyway; the fixed payout is kept as set',
      });
    }
    offers.add(offer.id);
    const country = offer.country?.trim().toUpperCase() ?? '';
    shared.push({
      kind: 'tracker-offers',
      oldKind: 'offer',
      oldId: String(offer.id),
      name: offer.name,
      build: (resolve) => ({
        name: offer.name,
        url: macros(target, 'offer', String(offer.id), offer.name),
        affiliate_network_external_id:
          offer.affiliateNetworkId == null ? null : resolve('affiliate_network', String(offer.affiliateNetworkId)),
        payout: offer.payout ?? 0,
        currency: offer.currency.toUpperCase(),
        countries: /^[A-Z]{2}$/.test(country) ? [country] : [],
      }),
    });
  }

  const landers = new Set<number>();
  for (const landing of live(data.landings, 'landing')) {
    const target = url(landing.url);
    if (!target) {
      out({
        kind: 'landing',
        old_id: String(landing.id),
        name: landing.name,
        reason: 'a landing page hosted in Binom (its files): upload them as a hosted lander',
      });
      continue;
    }
    landers.add(landing.id);
    shared.push({
      kind: 'tracker-landers',
      oldKind: 'landing',
      oldId: String(landing.id),
      name: landing.name,
      build: () => ({ name: landing.name, url: macros(target, 'landing', String(landing.id), landing.name) }),
    });
  }

  const sources = new CampaignSources(
    new Set(data.traffic_sources.filter((source) => !source.isDeleted).map((source) => source.id)),
    'Binom',
  );
  const campaigns: PlannedCampaign[] = [];
  for (const campaign of live(data.campaigns, 'campaign')) {
    const records: PlannedRecord[] = [];
    const note = (kind: string, id: string | null, name: string, reason: string) =>
      out({ kind, old_id: id, name, reason }, campaign);
    const cost = campaign.cost.isAuto ? 'Auto' : COST_MODELS[campaign.cost.model.toUpperCase()];
    if (!cost)
      note(
        'campaign_setting',
        String(campaign.id),
        `cost ${campaign.cost.model}`,
        'no equivalent cost model; CPC is used',
      );
    if (campaign.cost.money.currency.toUpperCase() !== 'USD') {
      note(
        'campaign_setting',
        String(campaign.id),
        `cost currency ${campaign.cost.money.currency}`,
        'costs are kept as the number, in the workspace currency',
      );
    }
    const rotation = campaign.customRotation;
    if (!rotation) {
      note(
        'campaign_setting',
        String(campaign.id),
        campaign.rotationId == null ? 'paths' : `rotation ${campaign.rotationId}`,
        'its paths and rules are in a rotation template, which is not read: the flow is empty',
      );
    }
    const pathOf = (path: BinomPath, where: string) =>
      pathRow(campaign, path, where, { offers, landers, records, note, macros });
    const groups: PlannedGroup[] = [];
    for (const [index, rule] of (rotation?.rules ?? []).entries()) {
      const ruleName = rule.name || `Rule ${index + 1}`;
      const condition = JSON.stringify(
        ruleCondition(rule, (name, reason) => note('rule_criterion', null, `${ruleName}: ${name}`, reason)),
      );
      // A rule none of whose criteria reads here would take every visitor: it comes over switched off.
      const emptied = rule.criteria.length > 0 && condition === ALL;
      if (emptied && rule.enabled) {
        note(
          'rule',
          null,
          ruleName,
          'none of its criteria has an equivalent: imported switched off, not for every visitor',
        );
      }
      const paths = rule.paths.map((path, pathIndex) => pathOf(path, `r${index + 1}-p${pathIndex + 1}`));
      groups.push((resolve) => ({
        id: `bc-${campaign.id}-r${index + 1}`,
        name: ruleName,
        enabled: rule.enabled && !emptied,
        condition,
        paths: paths.map((path) => path(resolve)),
      }));
    }
    const defaults = (rotation?.defaultPaths ?? []).map((path, index) => pathOf(path, `d-p${index + 1}`));
    if (defaults.length > 0) {
      groups.push((resolve) => ({
        id: `bc-${campaign.id}-default`,
        name: 'Default paths',
        condition: ALL,
        paths: defaults.map((path) => path(resolve)),
      }));
    }
    records.push(
      ...flowAndCampaign(
        { oldId: String(campaign.id), name: campaign.name, sourceOldId: sources.of(campaign.trafficSourceId) },
        groups,
        { cost_model: cost ?? 'CPC', cost: campaign.cost.money.amount },
      ),
    );
    campaigns.push({
      oldId: String(campaign.id),
      name: campaign.name,
      records,
      oldLinks: campaign.key ? [{ tracker: 'binom', key: campaign.key }] : [],
    });
  }
  shared.push(...sources.standIn());
  const byName = new Map(campaigns.map((campaign) => [campaign.name, campaign.oldId]));
  const domains = data.domains.map((domain) => ({
    oldId: domain.id,
    name: domain.domain,
    httpsOnly: domain.isSsl,
    indexCampaignOldId: (domain.indexPage === 'campaign' && byName.get(domain.campaignName ?? '')) || null,
  }));
  return { shared, campaigns, domains, leftOut };
}

interface PathContext {
  offers: Set<number>;
  landers: Set<number>;
  records: PlannedRecord[];
  note: (kind: string, id: string | null, name: string, reason: string) => void;
  macros: (text: string, kind: string, id: string, name: string, campaign: Owner) => string;
}

/** One Binom path as a Switchyard path: its offers (a direct URL as an offer of its own) and landers. */
function pathRow(campaign: BinomCampaign, path: BinomPath, where: string, context: PathContext) {
  const { offers, landers, records, note, macros } = context;
  const id = `bc-${campaign.id}-${where}`;
  const pathName = path.name || `Path ${where}`;
  const owner = { id: campaign.id, name: campaign.name };
  const rows: ((resolve: Resolve) => Record<string, unknown> | null)[] = [];
  for (const [index, entry] of path.offers.entries()) {
    const rowId = `${id}-o${index + 1}`;
    const row = (oldKind: string, oldId: string) => (resolve: Resolve) => {
      const offer = resolve(oldKind, oldId);
      return offer
        ? { id: rowId, offer_external_id: offer, weight: Math.round(entry.weight), enabled: entry.enabled }
        : null;
    };
    const direct = url(entry.directUrl);
    if (entry.offerId != null) {
      if (offers.has(entry.offerId)) rows.push(row('offer', String(entry.offerId)));
      else note('path_offer', String(entry.offerId), pathName, `offer ${entry.offerId} is not imported`);
    } else if (direct) {
      const oldId = `${campaign.id}:${where}:${index + 1}`;
      records.push({
        kind: 'tracker-offers',
        oldKind: 'path_url',
        oldId,
        name: `${campaign.name} / ${pathName}`,
        build: () => ({
          name: `${campaign.name} / ${pathName}`,
          url: macros(direct, 'path_url', oldId, pathName, owner),
        }),
      });
      rows.push(row('path_url', oldId));
    } else if (entry.campaignId != null) {
      note(
        'path_offer',
        String(entry.campaignId),
        pathName,
        `sends visitors to campaign ${entry.campaignId}: no equivalent in a path; left out of it`,
      );
    }
  }
  for (const row of path.landings) {
    if (!landers.has(row.landingId))
      note('path_landing', String(row.landingId), pathName, `landing page ${row.landingId} is not imported`);
  }
  return (resolve: Resolve) => ({
    id,
    name: pathName,
    enabled: path.enabled,
    weight: Math.round(path.weight),
    offers: rows.flatMap((row) => {
      const built = row(resolve);
      return built ? [built] : [];
    }),
    landers: path.landings.flatMap((row, index) => {
      const lander = resolve('landing', String(row.landingId));
      return lander
        ? [
            {
              id: `${id}-l${index + 1}`,
              lander_external_id: lander,
              weight: Math.round(row.weight),
              enabled: row.enabled,
            },
          ]
        : [];
    }),
  });
}
