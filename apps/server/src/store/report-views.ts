// Saved report views (packages/domain/src/report-views.ts). One row each: the reports screen's
// URL query string under a name, owned by a user in a workspace; names are unique per user and workspace.
import type { Generated } from 'kysely';

export interface ReportViewTable {
  id: Generated<number>;
  workspace_id: number;
  user_id: number;
  name: string;
  params: string;
  created_at: string;
  updated_at: string;
}
