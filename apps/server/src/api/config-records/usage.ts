// What still uses a record. Archiving an offer or lander that a live flow routes to
// broke its campaign without a word; now the archive is refused with `409` naming the active records
// that name it (from the registry's references: flows, offers naming it as their backup, …) and the
// active campaigns running those flows, unless the client asks to archive it anyway.
import { ARCHIVE_GUARDED_RESOURCES, RESOURCES, type RecordUser, type ResourceName } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import { ConflictError } from '../../errors.js';
import type { Database } from '../../store/schema.js';
import { referenceValues } from './references.js';

/** Kinds whose archiving is refused while an active record uses them: what routing sends visitors to. */
export const GUARDED_KINDS = ARCHIVE_GUARDED_RESOURCES;

/** How the message names each kind that can use another record. */
const KIND_WORDS: Partial<Record<ResourceName, string>> = {
  flows: 'flow',
  'tracker-flows': 'flow',
  campaigns: 'campaign',
  'tracker-campaigns': 'campaign',
  offers: 'offer',
  'tracker-offers': 'offer',
  segments: 'segment',
  'tracker-segments': 'segment',
  'traffic-sources': 'traffic source',
};

const CAMPAIGN_KINDS: ReadonlySet<string> = new Set(['campaigns', 'tracker-campaigns']);

export type UsedBy = RecordUser;

/** The active records of the workspace that name `externalId` of `kind` in a reference field. */
async function directUsers(
  db: Kysely<Database>,
  workspaceId: number,
  kind: ResourceName,
  externalId: string,
): Promise<UsedBy[]> {
  const referring = RESOURCES.flatMap((resource) =>
    (resource.references ?? [])
      .filter((reference) => reference.resource === kind)
      .map((reference) => ({ kind: resource.name as ResourceName, reference })),
  );
  if (referring.length === 0) return [];
  const rows = await db
    .selectFrom('config_records')
    .select(['kind', 'external_id', 'name', 'body'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where('kind', 'in', [...new Set(referring.map((entry) => entry.kind))])
    .execute();
  const found: UsedBy[] = [];
  for (const row of rows) {
    if (row.kind === kind && row.external_id === externalId) continue;
    let body: unknown;
    try {
      body = JSON.parse(row.body);
    } catch {
      continue;
    }
    const uses = referring.some(
      (entry) =>
        entry.kind === row.kind &&
        referenceValues(body, entry.reference).some((value) => String(value.value) === externalId),
    );
    if (uses) found.push({ kind: row.kind as ResourceName, external_id: row.external_id, name: row.name });
  }
  return found;
}

/** Who uses the record: the records naming it, then the campaigns running any flow among them. */
export async function recordUsage(
  db: Kysely<Database>,
  workspaceId: number,
  kind: ResourceName,
  externalId: string,
): Promise<UsedBy[]> {
  const direct = await directUsers(db, workspaceId, kind, externalId);
  const seen = new Set(direct.map((user) => `${user.kind}:${user.external_id}`));
  const all = [...direct];
  for (const user of direct) {
    if (user.kind !== 'flows' && user.kind !== 'tracker-flows') continue;
    for (const campaign of await directUsers(db, workspaceId, user.kind, user.external_id)) {
      const key = `${campaign.kind}:${campaign.external_id}`;
      if (!CAMPAIGN_KINDS.has(campaign.kind) || seen.has(key)) continue;
      seen.add(key);
      all.push(campaign);
    }
  }
  return all;
}

/** `Flow "Main" and tracker campaign "Spring"`-style words for a list of users. */
function named(users: readonly UsedBy[]): string {
  const words = users.map((user) => `${KIND_WORDS[user.kind] ?? user.kind} "${user.name}"`);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** A 409 naming what still uses the record; its body lists them under `used_by`. */
export class InUseError extends ConflictError {
  constructor(readonly usedBy: readonly UsedBy[]) {
    super(`Still used by ${named(usedBy)}. Remove it from them first, or archive it anyway.`);
  }

  override body(): Record<string, unknown> {
    return { message: this.message, used_by: this.usedBy };
  }
}
