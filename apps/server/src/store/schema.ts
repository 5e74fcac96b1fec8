import type { Generated, Insertable, Selectable } from 'kysely';
import type {
  MonitorIncidentTable,
  NotificationChannelTable,
  NotificationDeliveryTable,
  NotificationTable,
  WorkspaceMonitorTable,
} from './alerts.js';
import type { ApiTokenTable } from './api-tokens.js';
import type { ClickCostChangeTable } from './click-cost-changes.js';
import type { CampaignClickTokenTable } from './click-tokens.js';
import type { ConversionChangeTable } from './conversion-changes.js';
import type { CurrencyRateTable } from './conversion-states.js';
import type { ConversionTable, OutboundPostbackTable, PostbackLogTable } from './conversions.js';
import type { CustomMetricTable } from './custom-metrics.js';
import type { AcmeChallengeTable, DomainTable } from './domains.js';
import type { HistoryTable } from './history.js';
import type { ImportMappingTable, ImportTable } from './imports.js';
import type { LanderFileTable } from './lander-files.js';
import type { LiveWeightTable } from './live-weights.js';
import type { OldLinkTable } from './old-links.js';
import type { ReportRollupTable } from './report-rollups.js';
import type { ReportViewTable } from './report-views.js';
import type { RuleCooldownTable, RuleRunTable, RuleTable } from './rules.js';
import type { TrackerClickTable, TrackerLeadTable } from './tracker-events.js';

// Both dialects store the same values: timestamps as ISO-8601 text, booleans as 0/1, lists as JSON text.

export interface WorkspaceTable {
  id: Generated<number>;
  name: string;
  /** The key in the path of the workspace's postback URL, stored as given: it is shown. */
  postback_key: string | null;
  /** ISO 4217; conversions are converted to it. */
  currency: Generated<string>;
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
  /** The user's language (§9 codes) for the interface and emails; null until chosen. */
  language: Generated<string | null>;
  /** 1 for a self-registered account that must confirm its email before logging in. */
  needs_verification: Generated<number>;
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

/** A config entity (offer, flow, campaign, …); `kind` is its registry name. */
export interface ConfigRecordTable {
  id: Generated<number>;
  kind: string;
  /** Server-generated, unique per kind. */
  external_id: string;
  workspace_id: number | null;
  name: string;
  /** JSON object: the record's form fields other than `name`. */
  body: string;
  status: string;
  created_at: string;
  updated_at: string;
}

/** An invitation to create an account; the link's token is stored only as its SHA-256. */
export interface InvitationTable {
  id: Generated<number>;
  token_hash: string;
  /** Lowercased. */
  email: string;
  name: string;
  /** JSON arrays, granted on acceptance. */
  roles: string;
  permissions: string;
  workspaces: string;
  language: string;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_user_id: number | null;
  revoked_at: string | null;
}

/** A single-use link for an existing user: email verification or password reset. */
export interface AccountTokenTable {
  id: Generated<number>;
  token_hash: string;
  purpose: 'verify-email' | 'reset-password';
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Server settings changed from the dashboard; `value` is JSON. */
export interface SettingTable {
  key: string;
  value: string;
  updated_at: string;
}

/**
 * The number of each bounded text value in ClickHouse (columnar/clickhouse-codes.ts), issued here so that
 * every node writing to ClickHouse gives a value the same one. Instance-wide.
 */
export interface ColumnarCodeTable {
  code: Generated<number>;
  /** The ClickHouse column (schema.ts, BOUNDED_TEXT_COLUMNS). */
  name: string;
  value: string;
}

export interface Database {
  workspaces: WorkspaceTable;
  roles: RoleTable;
  users: UserTable;
  user_roles: UserRoleTable;
  user_workspaces: UserWorkspaceTable;
  sessions: SessionTable;
  invitations: InvitationTable;
  account_tokens: AccountTokenTable;
  settings: SettingTable;
  config_records: ConfigRecordTable;
  tracker_clicks: TrackerClickTable;
  tracker_click_cost_changes: ClickCostChangeTable;
  conversion_changes: ConversionChangeTable;
  tracker_leads: TrackerLeadTable;
  conversions: ConversionTable;
  postback_log: PostbackLogTable;
  outbound_postbacks: OutboundPostbackTable;
  report_rollups: ReportRollupTable;
  currency_rates: CurrencyRateTable;
  custom_metrics: CustomMetricTable;
  report_views: ReportViewTable;
  api_tokens: ApiTokenTable;
  history: HistoryTable;
  rules: RuleTable;
  rule_runs: RuleRunTable;
  rule_cooldowns: RuleCooldownTable;
  imports: ImportTable;
  import_mappings: ImportMappingTable;
  old_links: OldLinkTable;
  columnar_codes: ColumnarCodeTable;
  live_weights: LiveWeightTable;
  notifications: NotificationTable;
  notification_channels: NotificationChannelTable;
  notification_deliveries: NotificationDeliveryTable;
  workspace_monitors: WorkspaceMonitorTable;
  monitor_incidents: MonitorIncidentTable;
  campaign_click_tokens: CampaignClickTokenTable;
  lander_files: LanderFileTable;
  domains: DomainTable;
  acme_challenges: AcmeChallengeTable;
}

export type WorkspaceRow = Selectable<WorkspaceTable>;
export type RoleRow = Selectable<RoleTable>;
export type UserRow = Selectable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type NewUserRow = Insertable<UserTable>;
export type InvitationRow = Selectable<InvitationTable>;
export type ConfigRecordRow = Selectable<ConfigRecordTable>;
