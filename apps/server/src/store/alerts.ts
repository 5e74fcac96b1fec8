// Notifications (the bell), each user's channels and the log of what was sent through them. All three
// are workspace-owned; a user sees and changes only their own.
import type { Generated } from 'kysely';

export interface NotificationTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  read_at: string | null;
  created_at: string;
}

export interface NotificationChannelTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  kind: string;
  name: string;
  /** JSON: the kind's fields, its secret included. */
  settings: string;
  /** JSON: the alert kinds it carries; [] for every kind. */
  events: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface NotificationDeliveryTable {
  id: Generated<number>;
  workspace_id: number;
  channel_id: number;
  notification_id: number | null;
  status: string;
  attempts: number;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceMonitorTable {
  workspace_id: number;
  monitor: string;
  enabled: number;
}

/** An incident a monitor has told about: open until what it watches is well again, so it tells once. */
export interface MonitorIncidentTable {
  id: Generated<number>;
  workspace_id: number;
  monitor: string;
  /** What it is about: an offer's or campaign's id, a URL, or '' for the workspace. */
  subject: string;
  opened_at: string;
  closed_at: string | null;
}
