// The change history, one row per kept change (packages/domain/src/history.ts). `before` and
// `after` are JSON texts of the whole record (null where there is none). Read by workspace and time, and
// by one record's resource and id.
import type { Generated } from 'kysely';

export interface HistoryTable {
  id: Generated<number>;
  created_at: string;
  /** Null for what belongs to no workspace (users, account settings, logins). */
  workspace_id: number | null;
  user_id: number | null;
  ip: string | null;
  action: string;
  resource: string;
  record_id: string | null;
  record_name: string | null;
  before: string | null;
  after: string | null;
  restored_from: number | null;
  /** Set when no person made the change: `Rule: <name>` (0038). */
  author: string | null;
}
