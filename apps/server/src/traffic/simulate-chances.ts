// The chances a simulation answers for the group that routes, read off the counters without
// taking anything. They follow routing.ts: a path over a daily cap, or with nowhere to send, gives its
// share to the group's other paths; an offer row whose chain has no available offer under its cap gives
// its share to the path's other rows; a capped or unavailable offer passes its share to its backup.
import type { SimulationAnswer } from '@switchyard/domain';
import { type CapCounters, dayIn, offerCapKey, pathPostbacksCapKey, pathRegsCapKey } from './rules/caps.js';
import { countryAllowed, PATH_CAP_TIMEZONE } from './rules/routing.js';
import type { CompiledCampaign, CompiledOffer, CompiledPathGroup } from './rules/snapshot.js';

type CapLine = SimulationAnswer['caps'][number];
type PathChances = SimulationAnswer['probabilities']['paths'][number];

/** The caps read so far, each once. */
export class CapReader {
  readonly lines = new Map<string, CapLine>();

  constructor(
    private readonly caps: CapCounters,
    private readonly now: Date,
  ) {}

  /** What remains of an offer's cap; Infinity when it has none. */
  async offer(offer: CompiledOffer): Promise<number> {
    if (offer.dailyCap <= 0) return Number.POSITIVE_INFINITY;
    const day = dayIn(this.now, offer.capTimezone);
    const remaining = await this.caps.remaining(offerCapKey(`${offer.side}:${offer.externalId}`), day, offer.dailyCap);
    this.note({ kind: 'offer', id: offer.externalId, name: offer.name, day, limit: offer.dailyCap, remaining });
    return remaining;
  }

  /** What remains of a path's caps (Postbacks Daily Cap; Regs Daily Cap for leads); Infinity for none. */
  async path(
    campaign: CompiledCampaign,
    path: CompiledPathGroup['paths'][number],
    countRegs: boolean,
  ): Promise<number> {
    const day = dayIn(this.now, PATH_CAP_TIMEZONE);
    let least = Number.POSITIVE_INFINITY;
    const named = { id: path.id, name: path.name, day };
    if (path.postbackDailyCap > 0) {
      const spent = await this.caps.count(pathPostbacksCapKey(campaign.flowExternalId, path.id), day);
      const remaining = Math.max(0, path.postbackDailyCap - spent);
      this.note({ kind: 'path_postbacks', ...named, limit: path.postbackDailyCap, remaining });
      least = Math.min(least, remaining);
    }
    if (countRegs && path.dailyCap > 0) {
      const key = pathRegsCapKey(campaign.flowExternalId, path.id);
      const remaining = await this.caps.remaining(key, day, path.dailyCap);
      this.note({ kind: 'path_regs', ...named, limit: path.dailyCap, remaining });
      least = Math.min(least, remaining);
    }
    return least;
  }

  private note(line: CapLine): void {
    // Fail-closed counters answer Infinity spent: nothing remains.
    const remaining = Number.isFinite(line.remaining) ? line.remaining : 0;
    this.lines.set(`${line.kind}:${line.id}`, { ...line, remaining });
  }
}

/** The first offer along `externalId`'s backup chain that is available and under its cap, as routing picks it. */
export async function chainEnd(
  offers: ReadonlyMap<string, CompiledOffer>,
  externalId: string,
  caps: CapReader,
  country: string | undefined,
): Promise<CompiledOffer | null> {
  const seen = new Set<string>();
  let next: string | null = externalId;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const offer = offers.get(next);
    if (!offer) return null;
    next = offer.backupExternalId;
    if (offer.available && countryAllowed(offer, country) && (await caps.offer(offer)) > 0) return offer;
  }
  return null;
}

/** Each path's chance in `group`, and each lander's and offer's within its path. */
export async function groupChances(
  campaign: CompiledCampaign,
  group: CompiledPathGroup,
  offers: ReadonlyMap<string, CompiledOffer>,
  caps: CapReader,
  countRegs: boolean,
  country: string | undefined,
): Promise<SimulationAnswer['probabilities']> {
  const paths: (PathChances & { weight: number; routable: boolean })[] = [];
  for (const path of group.paths) {
    const open = (await caps.path(campaign, path, countRegs)) > 0;
    const ends = new Map<string, { offer: CompiledOffer; weight: number }>();
    let routableWeight = 0;
    for (const row of path.offers) {
      const end = await chainEnd(offers, row.offerExternalId, caps, country);
      if (!end) continue;
      routableWeight += row.weight;
      const share = ends.get(end.externalId) ?? { offer: end, weight: 0 };
      share.weight += row.weight;
      ends.set(end.externalId, share);
    }
    const landerWeight = path.landers.reduce((sum, row) => sum + row.weight, 0);
    paths.push({
      id: path.id,
      name: path.name,
      weight: path.weight,
      routable: open && (routableWeight > 0 || (path.landers.length > 0 && path.offers.length === 0)),
      chance: 0,
      landers: path.landers.map(({ lander, weight }) => ({
        external_id: lander.externalId,
        name: lander.name,
        chance: weight / landerWeight,
      })),
      offers: [...ends.values()].map(({ offer, weight }) => ({
        external_id: offer.externalId,
        name: offer.name,
        chance: weight / routableWeight,
      })),
    });
  }
  const total = paths.reduce((sum, path) => sum + (path.routable ? path.weight : 0), 0);
  const overall = new Map<string, { external_id: string; name: string; chance: number }>();
  const answered = paths.map(({ weight, routable, ...path }) => {
    const chance = routable && total > 0 ? weight / total : 0;
    for (const offer of path.offers) {
      const line = overall.get(offer.external_id) ?? { ...offer, chance: 0 };
      line.chance = Math.min(1, line.chance + chance * offer.chance);
      overall.set(offer.external_id, line);
    }
    return { ...path, chance };
  });
  return { paths: answered, offers: [...overall.values()] };
}
