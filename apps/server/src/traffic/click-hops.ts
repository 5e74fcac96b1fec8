// After the click, from the stored click: the second step of `double_meta` and `remote`, the lander's
// offer link (which records the lp click), and what a hosted lander's page is filled with. Each reads the
// click's row (parts.ts, storedEvent), never the routing decision again.
import type { RedirectMode } from '@switchyard/domain';
import { macroValues } from './event-macros.js';
import { type EngineParts, storedEvent } from './parts.js';
import { isoTime } from './visitor/iso-time.js';

/** Where a stored click's visitor was sent, and how: the second step of `double_meta` and `remote`. */
export interface ClickHop {
  location: string;
  mode: RedirectMode;
  /** The campaign's fallback for a `remote` target that cannot be served, filled for this click. */
  fallback: string | null;
}

/**
 * The stored click's target (its lander, else its offer, filled as at the click) and the mode in force
 * for its path now; null when the click is not the campaign's or leads nowhere.
 */
export async function hopForClick(
  parts: EngineParts,
  campaignExternalId: string,
  clickId: string,
): Promise<ClickHop | null> {
  const campaign = parts.snapshot.tracker.campaigns.get(campaignExternalId);
  if (!campaign) return null;
  const row = await storedEvent(parts, () => parts.store.storedClick(clickId), clickId);
  if (!row || row.campaign_external_id !== campaignExternalId) return null;
  const vars = JSON.parse(row.vars) as Record<string, string>;
  const macros = macroValues(row, clickId, undefined, vars);
  const lander = row.lander_external_id ? parts.snapshot.tracker.landers.get(row.lander_external_id) : undefined;
  const offer = row.offer_external_id ? parts.snapshot.tracker.offers.get(row.offer_external_id) : undefined;
  const location = lander ? lander.url.fill(macros, vars) : (offer?.url.fill(macros, vars) ?? null);
  if (!location) return null;
  let mode = campaign.redirectMode;
  for (const group of campaign.groups) {
    const path = group.paths.find((candidate) => candidate.id === row.path_id);
    if (path) {
      mode = path.redirectMode ?? mode;
      break;
    }
  }
  return { location, mode, fallback: campaign.fallbackUrl?.fill(macros, vars) ?? null };
}

/** Where a lander's offer link sends its visitor, and the commit of its lp click (0: none recorded). */
export interface OfferHop {
  location: string;
  event: number;
}

/**
 * Where a lander's offer link goes for `clickId`: the offer chosen at the click, from the stored click
 * (not kept in memory: holding every lander click until its visitor moves on cost more, in garbage
 * collection, than reading the one row when they do). `record` (a GET, not a HEAD) records an
 * lp click for a click through a lander that has none yet; the writer sets it once whatever comes twice.
 */
export async function offerForClick(
  parts: EngineParts,
  campaignExternalId: string,
  clickId: string,
  record = true,
  /** The request's: a link checker's (a bot's agent, or none) records nothing either. */
  userAgent?: string,
  /** A hosted lander's `{offer:N}`: the Nth offer of the click's path (1: the one chosen at the click). */
  position = 1,
): Promise<OfferHop | null> {
  const row = await storedEvent(parts, () => parts.store.storedClick(clickId), clickId);
  if (!row?.offer_external_id || row.campaign_external_id !== campaignExternalId) return null;
  const chosen = position > 1 ? nthOffer(parts, row, position) : undefined;
  const offerId = chosen ?? row.offer_external_id;
  const offer = parts.snapshot.tracker.offers.get(offerId);
  if (!offer) return null;
  const vars = JSON.parse(row.vars) as Record<string, string>;
  const location = offer.url.fill(macroValues({ ...row, offer_external_id: offerId }, clickId, undefined, vars), vars);
  if (location === null) return null;
  const event =
    record && row.lander_external_id && !row.lp_clicked_at && !checksLinks(parts, userAgent)
      ? parts.events.addLpClick({
          click_id: clickId,
          workspace_id: row.workspace_id,
          lp_clicked_at: isoTime(parts.now()),
        })
      : 0;
  return { location, event };
}

/**
 * The Nth offer (1-based) of the path a click was routed through, as the path lists its enabled offers
 * today; undefined when the path has no such offer, or it is unavailable (the click's own offer stands).
 */
function nthOffer(
  parts: EngineParts,
  row: { campaign_external_id: string; path_group_id: string | null; path_id: string | null },
  position: number,
): string | undefined {
  const campaign = parts.snapshot.tracker.campaigns.get(row.campaign_external_id);
  const group = campaign?.groups.find((candidate) => candidate.id === row.path_group_id);
  const path = group?.paths.find((candidate) => candidate.id === row.path_id);
  const id = path?.offers[position - 1]?.offerExternalId;
  return id && parts.snapshot.tracker.offers.get(id)?.available ? id : undefined;
}

/**
 * Whether a GET of the offer link is a link checker's or a scanner's rather than the visitor's going on:
 * no user agent, or one that says it is a bot (the click's own verdict counts its lp click apart).
 */
function checksLinks(parts: EngineParts, userAgent: string | undefined): boolean {
  return !userAgent || parts.userAgents.describe(userAgent).bot;
}

/**
 * What a hosted lander's HTML is filled with for the visitor of `clickId`: the click's campaign
 * (for the `{offer}` link) and its macro values, as its lander URL would be filled. Only a click that was
 * sent to this very lander: any other click id fills nothing.
 */
export async function landerClick(
  parts: EngineParts,
  landerExternalId: string,
  clickId: string,
): Promise<{
  campaignExternalId: string;
  workspaceId: number;
  macros: Record<string, unknown>;
  vars: Record<string, string>;
} | null> {
  const row = await storedEvent(parts, () => parts.store.storedClick(clickId), clickId);
  if (!row || row.lander_external_id !== landerExternalId) return null;
  const vars = JSON.parse(row.vars) as Record<string, string>;
  return {
    campaignExternalId: row.campaign_external_id,
    workspaceId: row.workspace_id,
    macros: macroValues(row, clickId, undefined, vars),
    vars,
  };
}
