// `GET` and `PUT /api/bot-protection`, the datacenter networks whose visitors are bots (a list
// the server ships, edited by administrators); `DELETE` puts the shipped list back. Server-wide, like
// the registration settings: read and changed under the instance's settings permission.
import { type BotProtectionSettings, type TBotProtectionForm, ZBotProtectionForm } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { authorizeInstance } from '../../http/guard.js';
import { parseInput } from '../../http/parse.js';
import { BOT_PROTECTION_KEY, defaultBotProtection, readBotProtection } from '../../store/bot-protection.js';
import { now } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import type { Database } from '../../store/schema.js';
import type { ConfigChangeListener } from '../config-records/service.js';

/** Said to the engine (and, with Redis, every node) when the list changes; the engine recompiles. */
const BOT_PROTECTION_KIND = 'bot-protection' as const;

async function save(
  db: Kysely<Database>,
  actor: Actor,
  next: TBotProtectionForm | null,
  changed: ConfigChangeListener,
): Promise<BotProtectionSettings> {
  const before = await readBotProtection(db);
  const timestamp = now();
  await db.transaction().execute(async (trx) => {
    if (next === null) {
      await trx.deleteFrom('settings').where('key', '=', BOT_PROTECTION_KEY).execute();
    } else {
      const value = JSON.stringify(next);
      await trx
        .insertInto('settings')
        .values({ key: BOT_PROTECTION_KEY, value, updated_at: timestamp })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: timestamp }))
        .execute();
    }
    await keepChange(
      trx,
      { userId: actor.userId, ip: actor.ip, workspaceId: null },
      {
        action: 'update',
        resource: BOT_PROTECTION_KIND,
        recordId: BOT_PROTECTION_KEY,
        recordName: null,
        before,
        after: next ?? defaultBotProtection(),
      },
    );
  });
  await changed(BOT_PROTECTION_KIND);
  return readBotProtection(db);
}

export function botProtectionRoutes(app: FastifyInstance, db: Kysely<Database>, changed: ConfigChangeListener): void {
  app.get('/bot-protection', async (request) => {
    authorizeInstance(request, 'get');
    return readBotProtection(db);
  });
  app.put('/bot-protection', async (request) => {
    const actor = authorizeInstance(request, 'update');
    const input = parseInput(ZBotProtectionForm, request.body);
    // One entry per network, the first name kept.
    const seen = new Set<number>();
    const unique = input.datacenter_asns.filter((entry) => !seen.has(entry.asn) && seen.add(entry.asn));
    return save(db, actor, { datacenter_asns: unique }, changed);
  });
  app.delete('/bot-protection', async (request) => {
    const actor = authorizeInstance(request, 'update');
    return save(db, actor, null, changed);
  });
}
