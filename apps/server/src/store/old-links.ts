// The links another tracker gave its campaigns before the move (Keitaro's alias, `https://domain/{alias}`
// and `?_dmn={alias}`; Binom's key, `/click.php?key={key}`), each naming the campaign imported from it.
// Workspace-owned: a link is unique per (workspace, tracker, key), so an import run again updates it.

export interface OldLinkTable {
  workspace_id: number;
  /** `keitaro` or `binom`. */
  tracker: string;
  /** Keitaro's campaign alias, or Binom's campaign key, as the old tracker wrote it. */
  old_key: string;
  campaign_external_id: string;
  updated_at: string;
}
