// "Where would this visitor go, and why": a click or lead routed by the same compiled routing
// as a live one (decide, on counters that count nothing), with each group's condition traced. Nothing
// is recorded; the address's click rate is not counted, so the `click_rate` bot reason never shows.
import { type SimulatedLead, type SimulatedVisitor, type SimulationAnswer, traceCondition } from '@switchyard/domain';
import { clickUniqueness, readClick } from './click.js';
import { macroValues } from './event-macros.js';
import { readLead } from './lead.js';
import type { EngineParts } from './parts.js';
import { ReadOnlyCapCounters } from './rules/caps.js';
import {
  conditionContext,
  countryAllowed,
  type Decision,
  decide,
  type RoutingSubject,
  visitorCountry,
} from './rules/routing.js';
import type { CompiledCampaign, Side } from './rules/snapshot.js';
import { CapReader, groupChances } from './simulate-chances.js';
import type { VisitorReading } from './visitor/context.js';
import type { UserAgentTraits } from './visitor/user-agent.js';

/** What stands for the id a click or lead would be given, in the URL answered. */
export const CLICK_ID_PLACEHOLDER = '{clickid}';
export const LEAD_ID_PLACEHOLDER = '{lead_id}';

/**
 * What a stored click or lead read that its stored context can no longer give (replay.ts): its vars,
 * already mapped from the traffic source's parameters (read again, a parameter named as a var could
 * move them), and whether it was unique (a simulated visitor sends no cookie, a replayed lead no email).
 */
export interface StoredReading {
  vars: Record<string, string>;
  unique: boolean;
  /** A click's: the traffic source's own click id. */
  externalClickId?: string | undefined;
  /** A lead's: its email's hash (only the hash is stored), which its registrations are counted by. */
  emailHash?: string;
}

/** A simulation on `side`'s campaign in `workspaceId`; null when there is no such active campaign there. */
export async function simulate(
  parts: EngineParts,
  side: Side,
  campaignExternalId: string,
  workspaceId: number,
  input: SimulatedVisitor | SimulatedLead,
  stored?: StoredReading,
): Promise<SimulationAnswer | null> {
  const campaign = parts.snapshot[side].campaigns.get(campaignExternalId);
  if (!campaign || campaign.workspaceId !== workspaceId) return null;
  const now = input.time === undefined ? parts.now() : new Date(input.time);
  if (side === 'tracker' && 'params' in input) {
    const read = readClick(
      parts,
      campaign,
      {
        campaignExternalId,
        query: input.params,
        ip: input.ip ?? '',
        userAgent: input.user_agent,
        referrer: input.referrer,
        acceptLanguage: input.language,
        cookieHeader: undefined,
      },
      now,
      false,
    );
    if (stored) {
      read.vars = stored.vars;
      read.externalClickId = stored.externalClickId;
      read.fields.isUnique = stored.unique ? 'true' : 'false';
    } else {
      const unique = await clickUniqueness(
        parts,
        campaign,
        read.visitor,
        input.ip ?? '',
        read.userAgent,
        now.getTime(),
        false,
      );
      read.fields.isUnique = unique ? 'true' : 'false';
    }
    return answer(parts, campaign, { fields: read.fields, vars: read.vars, now }, read, false, (decision) => ({
      values: macroValues(
        {
          campaign_external_id: campaign.externalId,
          offer_external_id: decision.offer?.externalId ?? null,
          lander_external_id: decision.lander?.externalId ?? null,
          country: read.reading.country ?? null,
          subaff: read.vars.subaff ?? (decision.path?.subaff || null),
          external_click_id: read.externalClickId ?? null,
        },
        CLICK_ID_PLACEHOLDER,
        undefined,
        read.vars,
      ),
      placeholder: CLICK_ID_PLACEHOLDER,
    }));
  }
  const lead = input as SimulatedLead;
  const read = readLead(parts, campaign, lead, now, false);
  if (stored) {
    read.fields.isUnique = stored.unique ? 'true' : 'false';
    // Today's count, as of today's configuration: the replayed lead's own registration among them.
    if (stored.emailHash !== undefined) read.fields.regsCount = parts.registrations.get(stored.emailHash) ?? 0;
  }
  return answer(parts, campaign, { fields: read.fields, vars: read.vars, now }, read, true, (decision) => ({
    // An API offer's `{clickid}` is the lead, as a lead's answer fills it.
    values: macroValues(
      {
        campaign_external_id: campaign.externalId,
        offer_external_id: decision.offer?.externalId ?? null,
        country: read.reading.country ?? null,
        subaff: read.vars.subaff ?? (decision.path?.subaff || null),
      },
      LEAD_ID_PLACEHOLDER,
      LEAD_ID_PLACEHOLDER,
      read.vars,
    ),
    placeholder: LEAD_ID_PLACEHOLDER,
  }));
}

interface Reading {
  reading: VisitorReading;
  traits: UserAgentTraits | undefined;
}

type Skipped = NonNullable<SimulationAnswer['groups'][number]['skipped_reason']>;

type UrlValues = (decision: Decision) => { values: ReturnType<typeof macroValues>; placeholder: string };

async function answer(
  parts: EngineParts,
  campaign: CompiledCampaign,
  subject: RoutingSubject,
  { reading, traits }: Reading,
  isLead: boolean,
  urlValues: UrlValues,
): Promise<SimulationAnswer> {
  const snapshot = parts.snapshot;
  const side = snapshot[campaign.side];
  // Math.random, not the engine's: a simulation must not move a seeded sequence live clicks draw from.
  const decision = await decide(
    snapshot,
    campaign,
    subject,
    { random: Math.random, caps: new ReadOnlyCapCounters(parts.caps) },
    isLead,
  );
  const context = conditionContext(side.segments, subject);
  const chosen = decision.group ? campaign.groups.indexOf(decision.group) : -1;
  const groups: SimulationAnswer['groups'] = [
    ...campaign.groups.map((group, index) => {
      const matched = group.matches(context);
      const passed: Skipped | null =
        chosen >= 0 && index > chosen ? 'after_match' : matched && index !== chosen ? 'no_route' : null;
      return {
        id: group.id,
        name: group.name,
        priority: group.priority,
        matched,
        ...(passed ? { skipped_reason: passed } : {}),
        condition_trace: traceCondition(group.condition, context),
      };
    }),
    ...campaign.disabledGroups.map((group) => ({
      id: group.id,
      name: group.name,
      priority: group.priority,
      matched: false,
      skipped_reason: 'disabled' as const,
      condition_trace: traceCondition(group.condition, context),
    })),
  ].sort((a, b) => a.priority - b.priority);

  const caps = new CapReader(parts.caps, subject.now);
  const probabilities = decision.group
    ? await groupChances(campaign, decision.group, side.offers, caps, isLead, visitorCountry(subject))
    : { paths: [], offers: [] };
  const backupChain: SimulationAnswer['backup_chain'] = [];
  const seen = new Set<string>();
  for (let next = decision.chainStart; next !== null && !seen.has(next); ) {
    seen.add(next);
    const offer = side.offers.get(next);
    if (!offer) break;
    const remaining = await caps.offer(offer);
    const used = offer === decision.offer;
    backupChain.push({
      external_id: offer.externalId,
      name: offer.name,
      available: offer.available,
      country_allowed: countryAllowed(offer, visitorCountry(subject)),
      remaining: Number.isFinite(remaining) ? remaining : null,
      used,
    });
    if (used) break;
    next = offer.backupExternalId;
  }

  const { values, placeholder } = urlValues(decision);
  const template = decision.lander && !isLead ? decision.lander.url : decision.offer?.url;
  const filled = template?.fill(values, subject.vars) ?? null;
  const fields: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(subject.fields)) if (value !== undefined) fields[name] = value;
  const vars = { ...subject.vars } as Record<string, string>;
  return {
    context: {
      // Each var also by its own name (`context.var1`), as the contract lists "vars…" beside the fields;
      // a var never hides a field of the context, which are set after it.
      ...vars,
      country: reading.country ?? null,
      region: reading.region ?? null,
      city: reading.city ?? null,
      asn: reading.asn ?? null,
      isp: reading.isp ?? null,
      device: traits?.device ?? null,
      platform: traits?.platform ?? null,
      browser: traits?.browser ?? null,
      language: reading.language ?? null,
      referrer: reading.referrerDomain ?? null,
      vars,
      isBot: reading.botReason !== null,
      botReason: reading.botReason,
      fields,
      time: subject.now.toISOString(),
    },
    groups,
    path_group: decision.group ? { id: decision.group.id, name: decision.group.name } : null,
    path: decision.path ? { id: decision.path.id, name: decision.path.name } : null,
    lander: decision.lander ? { external_id: decision.lander.externalId, name: decision.lander.name } : null,
    offer: decision.offer ? { external_id: decision.offer.externalId, name: decision.offer.name } : null,
    reason: decision.reason,
    backup_chain: backupChain,
    caps: [...caps.lines.values()],
    // The placeholder is filled URL-encoded, as every value is; it is given back as written.
    url: filled?.replaceAll(encodeURIComponent(placeholder), placeholder) ?? null,
    redirect_mode: filled && !isLead ? (decision.path?.redirectMode ?? campaign.redirectMode) : null,
    probabilities,
  };
}
