// Reading and writing the old trackers' campaign links (old-links.ts), always within a scope: an import
// writes its workspace's, the traffic engine reads every workspace's to compile them into routing.
import type { Kysely, Transaction } from 'kysely';
import { now } from './database.js';
import type { Database } from './schema.js';
import { type Scope, scopeCondition } from './scope.js';

export const OLD_TRACKERS = ['keitaro', 'binom'] as const;
export type OldTracker = (typeof OLD_TRACKERS)[number];

/** A campaign's link on the tracker it came from: Keitaro's alias, Binom's key. */
export interface OldLink {
  tracker: OldTracker;
  key: string;
}

export interface StoredOldLink extends OldLink {
  workspaceId: number;
  campaignExternalId: string;
  /** When the link was imported (or last changed by an import). */
  importedAt: string;
}

/** The longest key kept (Keitaro's alias is at most 255 characters). */
export const MAX_OLD_KEY = 255;

/**
 * Makes `links` the old links of `campaignExternalId` in the scope's workspace: each key names this
 * campaign (taken from another campaign that held it), and the campaign's keys of `trackers` (by default
 * those of `links`) no longer listed are removed. Idempotent: answers whether anything changed.
 */
export async function saveOldLinks(
  db: Kysely<Database> | Transaction<Database>,
  scope: { workspaceId: number },
  campaignExternalId: string,
  links: readonly OldLink[],
  trackers: readonly OldTracker[] = [...new Set(links.map((link) => link.tracker))],
): Promise<boolean> {
  const wanted = new Map<string, OldLink>();
  for (const link of links) {
    const key = link.key.trim();
    if (key === '' || key.length > MAX_OLD_KEY) continue;
    wanted.set(`${link.tracker}\n${key}`, { tracker: link.tracker, key });
  }
  let changed = false;
  if (trackers.length > 0) {
    const held = await db
      .selectFrom('old_links')
      .select(['tracker', 'old_key'])
      .where('campaign_external_id', '=', campaignExternalId)
      .where('tracker', 'in', trackers)
      .where(scopeCondition(scope, 'workspace_id'))
      .execute();
    for (const row of held) {
      if (wanted.has(`${row.tracker}\n${row.old_key}`)) continue;
      await db
        .deleteFrom('old_links')
        .where('tracker', '=', row.tracker)
        .where('old_key', '=', row.old_key)
        .where(scopeCondition(scope, 'workspace_id'))
        .execute();
      changed = true;
    }
  }
  for (const link of wanted.values()) {
    const existing = await db
      .selectFrom('old_links')
      .select('campaign_external_id')
      .where('tracker', '=', link.tracker)
      .where('old_key', '=', link.key)
      .where(scopeCondition(scope, 'workspace_id'))
      .executeTakeFirst();
    if (existing?.campaign_external_id === campaignExternalId) continue;
    const values = { campaign_external_id: campaignExternalId, updated_at: now() };
    await db
      .insertInto('old_links')
      .values({ workspace_id: scope.workspaceId, tracker: link.tracker, old_key: link.key, ...values })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'tracker', 'old_key']).doUpdateSet(values))
      .execute();
    changed = true;
  }
  return changed;
}

/** The old links of the scope (the engine compiles the instance's). */
export async function readOldLinks(db: Kysely<Database>, scope: Scope): Promise<StoredOldLink[]> {
  const rows = await db
    .selectFrom('old_links')
    .select(['workspace_id', 'tracker', 'old_key', 'campaign_external_id', 'updated_at'])
    .where(scopeCondition(scope, 'workspace_id'))
    .execute();
  return rows.flatMap((row) =>
    (OLD_TRACKERS as readonly string[]).includes(row.tracker)
      ? [
          {
            workspaceId: Number(row.workspace_id),
            tracker: row.tracker as OldTracker,
            key: row.old_key,
            campaignExternalId: row.campaign_external_id,
            importedAt: row.updated_at,
          },
        ]
      : [],
  );
}
