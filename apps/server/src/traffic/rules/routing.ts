// Routing decisions: path groups in priority order, the first whose condition
// matches wins; a path by weight among the enabled; a lander and an offer by weight; a capped or
// unavailable offer passes to its backup chain; a path over its Regs Daily Cap, or with nowhere to
// send, gives way to the group's other paths and then to the next matching group.
import type { ConditionContext, ConditionTest } from '@switchyard/domain';
import { type CapCounters, dayIn, offerCapKey, pathPostbacksCapKey, pathRegsCapKey } from './caps.js';
import type {
  CompiledCampaign,
  CompiledLander,
  CompiledOffer,
  CompiledPath,
  CompiledPathGroup,
  RoutingSnapshot,
} from './snapshot.js';
import { pickWeighted, type Random } from './weighted.js';

/** What conditions see of a click or lead (the ConditionContext without segments, which routing adds). */
export interface RoutingSubject {
  fields: ConditionContext['fields'];
  vars: ConditionContext['vars'];
  now: Date;
}

export type DecisionReason =
  /** A group matched and its first choices were sent. */
  | 'matched'
  /** A group matched; the chosen offer was capped or unavailable and a backup took the traffic. */
  | 'backup_offer'
  /** No enabled path group's condition matched. */
  | 'no_matching_path_group'
  /** Groups matched, but every path or offer was over its daily cap. */
  | 'capped'
  /** Groups matched, but no path had an available offer or lander. */
  | 'no_offer';

export interface Decision {
  group: CompiledPathGroup | null;
  path: CompiledPath | null;
  lander: CompiledLander | null;
  offer: CompiledOffer | null;
  /** The offer row picked, whose backup chain led to `offer` (the click inspector shows the chain). */
  chainStart: string | null;
  backupUsed: boolean;
  reason: DecisionReason;
}

export interface RoutingDeps {
  random: Random;
  caps: CapCounters;
}

/** Segment membership for one subject, each segment evaluated at most once (and never through itself). */
export function conditionContext(
  segments: ReadonlyMap<string, ConditionTest>,
  subject: RoutingSubject,
): ConditionContext {
  // Made on the first segment asked about: most flows use none, and this runs for every click.
  let known: Map<string, boolean> | undefined;
  let visiting: Set<string> | undefined;
  const context: ConditionContext = {
    fields: subject.fields,
    vars: subject.vars,
    now: subject.now,
    inSegment(segmentExternalId) {
      known ??= new Map();
      visiting ??= new Set();
      const cached = known.get(segmentExternalId);
      if (cached !== undefined) return cached;
      const test = segments.get(segmentExternalId);
      if (!test || visiting.has(segmentExternalId)) return false;
      visiting.add(segmentExternalId);
      const inside = test(context);
      visiting.delete(segmentExternalId);
      known.set(segmentExternalId, inside);
      return inside;
    },
  };
  return context;
}

interface OfferOutcome {
  offer: CompiledOffer | null;
  backupUsed: boolean;
  capped: boolean;
}

/** Whether an offer takes a visitor from `country` (an offer without countries takes everyone). */
export function countryAllowed(offer: CompiledOffer, country: string | undefined): boolean {
  return offer.countries === null || (country !== undefined && offer.countries.has(country));
}

/**
 * The first offer along `externalId`'s backup chain that is available, takes the visitor's country, and
 * is under its cap (counted).
 */
export async function resolveOffer(
  offers: ReadonlyMap<string, CompiledOffer>,
  externalId: string,
  now: Date,
  caps: CapCounters,
  country?: string,
): Promise<OfferOutcome> {
  const seen = new Set<string>();
  let capped = false;
  let next: string | null = externalId;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const offer = offers.get(next);
    if (!offer) break;
    next = offer.backupExternalId;
    if (!offer.available || !countryAllowed(offer, country)) continue;
    if (offer.dailyCap > 0) {
      const taken = await caps.tryTake(
        offerCapKey(`${offer.side}:${offer.externalId}`),
        dayIn(now, offer.capTimezone),
        offer.dailyCap,
      );
      if (!taken) {
        capped = true;
        continue;
      }
    }
    return { offer, backupUsed: offer.externalId !== externalId, capped };
  }
  return { offer: null, backupUsed: false, capped };
}

interface PathOutcome {
  lander: CompiledLander | null;
  offer: CompiledOffer | null;
  chainStart: string | null;
  backupUsed: boolean;
  capped: boolean;
  routed: boolean;
}

/** The visitor's country as conditions see it (countryCode), or undefined when it is not known. */
export function visitorCountry(subject: RoutingSubject): string | undefined {
  const code = subject.fields.countryCode;
  return typeof code === 'string' && code !== '' ? code.toUpperCase() : undefined;
}

/** Day of a path's Regs Daily Cap: paths carry no timezone of their own, so UTC. */
export const PATH_CAP_TIMEZONE = 'UTC';

async function routePath(
  campaign: CompiledCampaign,
  path: CompiledPath,
  offers: ReadonlyMap<string, CompiledOffer>,
  subject: RoutingSubject,
  deps: RoutingDeps,
  countRegs: boolean,
): Promise<PathOutcome> {
  const none = { lander: null, offer: null, chainStart: null, backupUsed: false };
  let capped = false;
  // Postbacks Daily Cap: the path rests for the day once its conversions reach the cap.
  if (
    path.postbackDailyCap > 0 &&
    (await deps.caps.count(
      pathPostbacksCapKey(campaign.flowExternalId, path.id),
      dayIn(subject.now, PATH_CAP_TIMEZONE),
    )) >= path.postbackDailyCap
  ) {
    return { ...none, capped: true, routed: false };
  }
  const counted = countRegs && path.dailyCap > 0;
  const regsKey = counted ? pathRegsCapKey(campaign.flowExternalId, path.id) : '';
  const regsDay = counted ? dayIn(subject.now, PATH_CAP_TIMEZONE) : '';
  if (counted && !(await deps.caps.tryTake(regsKey, regsDay, path.dailyCap))) {
    return { ...none, capped: true, routed: false };
  }
  const lander = pickWeighted(path.landers, deps.random)?.lander ?? null;
  let rows = path.offers;
  while (rows.length > 0) {
    const row = pickWeighted(rows, deps.random);
    if (!row) break;
    const outcome = await resolveOffer(offers, row.offerExternalId, subject.now, deps.caps, visitorCountry(subject));
    capped ||= outcome.capped;
    if (outcome.offer) {
      const { offer, backupUsed } = outcome;
      return { lander, offer, chainStart: row.offerExternalId, backupUsed, capped, routed: true };
    }
    rows = rows.filter((candidate) => candidate !== row);
  }
  // A tracker path may send to a lander alone (the lander links on to no offer).
  if (lander && path.offers.length === 0) return { ...none, lander, capped, routed: true };
  if (counted) await deps.caps.release(regsKey, regsDay);
  return { ...none, capped, routed: false };
}

/** The campaign's groups; for a click whose var value the campaign excludes, only its fallback (the last). */
function routedGroups(campaign: CompiledCampaign, subject: RoutingSubject): readonly CompiledPathGroup[] {
  if (campaign.excluded.size === 0) return campaign.groups;
  for (const [name, values] of campaign.excluded) {
    const value = (subject.vars as Record<string, string | undefined>)[name];
    if (value !== undefined && values.has(value)) return campaign.groups.slice(-1);
  }
  return campaign.groups;
}

/**
 * Routes a click (`countRegs` false) or a lead (`countRegs` true: paths' Regs Daily Caps count it).
 * Caps are taken as the decision is made, so concurrent decisions never exceed them.
 */
export async function decide(
  snapshot: RoutingSnapshot,
  campaign: CompiledCampaign,
  subject: RoutingSubject,
  deps: RoutingDeps,
  countRegs: boolean,
): Promise<Decision> {
  const side = snapshot[campaign.side];
  const context = conditionContext(side.segments, subject);
  let matchedAny = false;
  let capped = false;
  for (const group of routedGroups(campaign, subject)) {
    if (!group.matches(context)) continue;
    matchedAny = true;
    let paths = group.paths;
    while (paths.length > 0) {
      const path = pickWeighted(paths, deps.random);
      if (!path) break;
      const outcome = await routePath(campaign, path, side.offers, subject, deps, countRegs);
      capped ||= outcome.capped;
      if (outcome.routed) {
        return {
          group,
          path,
          lander: outcome.lander,
          offer: outcome.offer,
          chainStart: outcome.chainStart,
          backupUsed: outcome.backupUsed,
          reason: outcome.backupUsed ? 'backup_offer' : 'matched',
        };
      }
      paths = paths.filter((candidate) => candidate !== path);
    }
  }
  return {
    group: null,
    path: null,
    lander: null,
    offer: null,
    chainStart: null,
    backupUsed: false,
    reason: !matchedAny ? 'no_matching_path_group' : capped ? 'capped' : 'no_offer',
  };
}
