// Personal API tokens, one row each: the SHA-256 of the secret (never the secret), the user and
// workspace it acts for, its permissions (JSON list), its expiry, when and from where it was last used,
// and when it was revoked (a revoked row is kept: the history says who revoked what).
import type { Generated } from 'kysely';

export interface ApiTokenTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  workspace_id: number;
  name: string;
  permissions: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  revoked_at: string | null;
}
