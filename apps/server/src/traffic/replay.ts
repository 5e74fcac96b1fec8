// Issue 25: a stored click's context routed again by simulate (today's configuration and time), beside
// what happened when it was routed. Nothing is recorded.
import type { ClickReplay } from '@switchyard/domain';
import type { StoredClick } from '../store/traffic/engine-store.js';
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
): Promise<ClickReplay | null> {
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

function clickOf(row: StoredClick, vars: Record<string, string>): ClickReplay['click'] {
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
    is_bot: Number(row.is_bot) === 1,
    bot_reason: text(row.bot_reason),
    is_unique: Number(row.is_unique) === 1,
    ip: text(row.ip),
    user_agent: text(row.user_agent),
    referrer: text(row.referrer),
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
    external_click_id: text(row.external_click_id),
    vars,
  };
}
