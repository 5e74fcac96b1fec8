import type { Generated, Insertable, Selectable } from 'kysely';

// Both dialects store the same values: timestamps as ISO-8601 text, booleans as 0/1, lists as JSON text.

export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  /** JSON array of §6 permission strings. */
  permissions: string;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: Generated<number>;
  name: string;
  /** Lowercased; unique. */
  email: string;
  password_hash: string;
  active: number;
  email_verified: number;
  /** JSON array of the user's own permission strings (roles add theirs). */
  permissions: string;
  invited_by: number | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

export interface UserWorkspaceTable {
  user_id: number;
  workspace_id: number;
}

export interface SessionTable {
  id: Generated<number>;
  /** SHA-256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
}

export interface Database {
  workspaces: WorkspaceTable;
  roles: RoleTable;
  users: UserTable;
  user_roles: UserRoleTable;
  user_workspaces: UserWorkspaceTable;
  sessions: SessionTable;
}

export type WorkspaceRow = Selectable<WorkspaceTable>;
export type RoleRow = Selectable<RoleTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type NewUserRow = Insertable<UserTable>;
