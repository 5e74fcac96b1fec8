// A direct campaign's click token: what a lander server sends with `POST /v1/clicks` (the tracking script
// needs none: it is bound to the origins the campaign allows). One per campaign, kept only as its SHA-256;
// making a new one replaces the old, which stops working at once.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { now } from './database.js';
import type { Database } from './schema.js';

export interface CampaignClickTokenTable {
  campaign_external_id: string;
  workspace_id: number;
  token_hash: string;
  created_at: string;
}

/** `syc_` and 32 random bytes, base64url. */
export function newClickToken(): string {
  return `syc_${randomBytes(32).toString('base64url')}`;
}

export function clickTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Replaces the campaign's token with a new one (the campaign is the workspace's: the caller checked). */
export async function replaceClickToken(
  db: Kysely<Database>,
  workspaceId: number,
  campaignExternalId: string,
): Promise<{ token: string; created_at: string }> {
  const token = newClickToken();
  const createdAt = now();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('campaign_click_tokens')
      .where('workspace_id', '=', workspaceId)
      .where('campaign_external_id', '=', campaignExternalId)
      .execute();
    await trx
      .insertInto('campaign_click_tokens')
      .values({
        campaign_external_id: campaignExternalId,
        workspace_id: workspaceId,
        token_hash: clickTokenHash(token),
        created_at: createdAt,
      })
      .execute();
  });
  return { token, created_at: createdAt };
}

/** When the campaign's token was made, or null when it has none. */
export async function clickTokenMade(
  db: Kysely<Database>,
  workspaceId: number,
  campaignExternalId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('campaign_click_tokens')
    .select('created_at')
    .where('workspace_id', '=', workspaceId)
    .where('campaign_external_id', '=', campaignExternalId)
    .executeTakeFirst();
  return row?.created_at ?? null;
}
