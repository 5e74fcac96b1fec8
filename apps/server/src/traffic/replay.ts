// A stored click's or lead's context routed again by simulate (today's configuration and
// time), beside what happened when it was routed. Nothing is recorded.
import type { ReplayedClick, ReplayedLead } from '@switchyard/domain';
import type { StoredClick, StoredLead } from '../store/traffic/engine-store.js';
import { type EngineParts, storedEvent } from './parts.js';
import { simulate } from './simulate.js';

const text = (value: string | null | undefined): string | null => value ?? null;

function storedVars(json: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).map(([name, value]) => [name, String(value)]));
  } catch {
    return {};
  }
}

/**
 * The click `clickId` replayed in `workspaceId`; null when there is no such click or its campaign is
 * not one of the workspace's (`inWorkspace`, asked of the stored records: an archived campaign too).
 */
export async function replayClick(
  parts: EngineParts,
  clickId: string,
  workspaceId: number,
  inWorkspace: (campaignExternalId: string) => Promise<boolean>,
): Promise<ReplayedClick | null> {
  const row = await storedEvent(parts, () => parts.store.storedClick(clickId), clickId);
  if (!row || !(await inWorkspace(row.campaign_external_id))) return null;
  const vars = storedVars(row.vars);
  const replay = await simulate(
    parts,
    'tracker',
    row.campaign_external_id,
    workspaceId,
    {
      ip: row.ip ?? undefined,
      user_agent: row.user_agent ?? undefined,
      // The stored code (Accept-Language's first choice) reads back as the same language.
      language: row.language ?? undefined,
      referrer: row.referrer ?? undefined,
      // The stored vars are given as they were read (below), not as a query to map again.
      params: {},
    },
    { vars, externalClickId: row.external_click_id ?? undefined, unique: Number(row.is_unique) === 1 },
  );
  return { click: clickOf(row, vars), replay };
}

/** The lead `leadId` replayed in `workspaceId`, as replayClick a click. */
export async function replayLead(
  parts: EngineParts,
  leadId: string,
  workspaceId: number,
  inWorkspace: (campaignExternalId: string) => Promise<boolean>,
): Promise<ReplayedLead | null> {
  const row = await storedEvent(parts, () => parts.store.storedLead(leadId), leadId);
  if (!row || !(await inWorkspace(row.campaign_external_id))) return null;
  const vars = storedVars(row.vars);
  const replay = await simulate(
    parts,
    'api',
    row.campaign_external_id,
    workspaceId,
    {
      // Only the email's hash and domain are stored: an address at the domain rates as the email did.
      email: `replay@${row.email_domain}`,
      age: row.age ?? undefined,
      // The stored country (the lead's own, else its address's) reads back as the same country.
      country: row.country ?? undefined,
      ip: row.ip ?? undefined,
      user_agent: row.user_agent ?? undefined,
      language: row.language ?? undefined,
      referrer: row.referrer_domain ? `https://${row.referrer_domain}/` : undefined,
      vars,
    },
    { vars, unique: Number(row.is_unique) === 1, emailHash: row.email_hash },
  );
  return { lead: leadOf(row, vars), replay };
}

function leadOf(row: StoredLead, vars: Record<string, string>): ReplayedLead['lead'] {
  return {
    lead_id: row.lead_id,
    created_at: String(row.created_at),
    campaign_external_id: row.campaign_external_id,
    flow_external_id: text(row.flow_external_id),
    path_group_id: text(row.path_group_id),
    path_id: text(row.path_id),
    offer_external_id: text(row.offer_external_id),
    decision: row.decision,
    reason: row.reason,
    backup_used: Number(row.backup_used) === 1,
    ...visitorOf(row),
    email_domain: row.email_domain,
    age: row.age === null ? null : Number(row.age),
    vars,
  };
}

/** What was read off the visitor, as a click and a lead store it. */
function visitorOf(row: StoredClick | StoredLead) {
  return {
    is_bot: Number(row.is_bot) === 1,
    bot_reason: text(row.bot_reason),
    is_unique: Number(row.is_unique) === 1,
    ip: text(row.ip),
    user_agent: text(row.user_agent),
    language: text(row.language),
    country: text(row.country),
    region: text(row.region),
    city: text(row.city),
    // A bigint: PostgreSQL answers it as text.
    asn: row.asn === null ? null : Number(row.asn),
    isp: text(row.isp),
    device: text(row.device),
    platform: text(row.platform),
    browser: text(row.browser),
  };
}

function clickOf(row: StoredClick, vars: Record<string, string>): ReplayedClick['click'] {
  return {
    click_id: row.click_id,
    created_at: String(row.created_at),
    campaign_external_id: row.campaign_external_id,
    flow_external_id: text(row.flow_external_id),
    path_group_id: text(row.path_group_id),
    path_id: text(row.path_id),
    lander_external_id: text(row.lander_external_id),
    offer_external_id: text(row.offer_external_id),
    reason: row.reason,
    ...visitorOf(row),
    referrer: text(row.referrer),
    external_click_id: text(row.external_click_id),
    vars,
  };
}
