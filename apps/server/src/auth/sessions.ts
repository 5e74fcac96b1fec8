import { createHash, randomBytes } from 'node:crypto';
import { SESSION_IDLE_MS } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../store/schema.js';

// A bearer token is 32 random bytes (base64url); only its SHA-256 is stored, so a copy of the
// database does not hand out working tokens.

const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** last_used_at is written at most this often per session, not on every request. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionClient {
  ip: string | null;
  userAgent: string | null;
}

export class Sessions {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly idleMs: number = SESSION_IDLE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  async create(userId: number, client: SessionClient): Promise<string> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const now = this.clock();
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        user_id: userId,
        created_at: new Date(now).toISOString(),
        last_used_at: new Date(now).toISOString(),
        expires_at: new Date(now + this.idleMs).toISOString(),
        ip: client.ip,
        user_agent: client.userAgent?.slice(0, 500) ?? null,
      })
      .execute();
    return token;
  }

  /** The live session a token names, refreshing its idle deadline; null when unknown or expired. */
  async find(token: string): Promise<SessionRow | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const session = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!session) return null;
    const now = this.clock();
    if (Date.parse(session.expires_at) <= now) {
      await this.db.deleteFrom('sessions').where('id', '=', session.id).execute();
      return null;
    }
    if (now - Date.parse(session.last_used_at) >= SESSION_TOUCH_INTERVAL_MS) {
      const lastUsedAt = new Date(now).toISOString();
      const expiresAt = new Date(now + this.idleMs).toISOString();
      await this.db
        .updateTable('sessions')
        .set({ last_used_at: lastUsedAt, expires_at: expiresAt })
        .where('id', '=', session.id)
        .execute();
      return { ...session, last_used_at: lastUsedAt, expires_at: expiresAt };
    }
    return session;
  }

  async revoke(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  /** Ends every session of a user, except optionally the one making the request. */
  async revokeAllOf(userId: number, exceptSessionId?: number, db: Kysely<Database> = this.db): Promise<void> {
    let query = db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
    await query.execute();
  }

  async deleteExpired(): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', new Date(this.clock()).toISOString()).execute();
  }
}
