import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { Sessions } from './sessions.js';

/**
 * What a new password ends, whichever route set it (profile, reset link, an administrator on the user):
 * every unused reset link, since one asked for before the change would undo it, and
 * every session but `keptSessionId`, the one that made the change on the profile. Run in the change's
 * own transaction, so the password never changes without them ending.
 */
export async function endWhatThePasswordOpened(
  trx: Kysely<Database>,
  sessions: Sessions,
  userId: number,
  keptSessionId?: number,
): Promise<void> {
  await trx
    .deleteFrom('account_tokens')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'reset-password')
    .where('used_at', 'is', null)
    .execute();
  await sessions.revokeAllOf(userId, keptSessionId, trx);
}
