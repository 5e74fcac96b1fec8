// Imports from other trackers, and what each old record became. Both workspace-owned. A
// mapping is unique per (workspace, tracker, old kind, old id), so running an import again updates the
// record it made instead of making another; `form_hash` is the form last written, so an identical run
// changes nothing.
import type { Generated } from 'kysely';

export interface ImportTable {
  id: Generated<number>;
  workspace_id: number;
  source: string;
  status: string;
  done: number;
  total: number;
  /** JSON: { summary, records, left_out }. */
  result: string;
  error: string | null;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
}

export interface ImportMappingTable {
  workspace_id: number;
  source: string;
  old_kind: string;
  old_id: string;
  kind: string;
  external_id: string;
  form_hash: string;
  updated_at: string;
}
