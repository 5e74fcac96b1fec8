// The datacenter networks whose visitors are bots, kept in `settings`: the shipped list until
// an administrator edits it. Read by the settings screen and by the engine when it compiles routing.
import type { BotProtectionSettings, TBotProtectionForm } from '@switchyard/domain';
import { DEFAULT_DATACENTER_ASNS } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export const BOT_PROTECTION_KEY = 'bot-protection';

export function defaultBotProtection(): BotProtectionSettings {
  return { datacenter_asns: DEFAULT_DATACENTER_ASNS.map(({ asn, name }) => ({ asn, name })), is_default: true };
}

export async function readBotProtection(db: Kysely<Database>): Promise<BotProtectionSettings> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', BOT_PROTECTION_KEY).executeTakeFirst();
  if (!row) return defaultBotProtection();
  const stored = JSON.parse(row.value) as Partial<TBotProtectionForm>;
  return { datacenter_asns: Array.isArray(stored.datacenter_asns) ? stored.datacenter_asns : [], is_default: false };
}
