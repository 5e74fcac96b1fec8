// What an import will write, whatever tracker it came from. A record is built from the new ids
// of what it names (`resolve`), known only once those are written; what it names that was left out
// resolves to null and its row is dropped (that record was reported as left out already).
import type { LeftOut, ResourceName } from '@switchyard/domain';

export type Resolve = (oldKind: string, oldId: string) => string | null;

export interface PlannedRecord {
  kind: ResourceName;
  oldKind: string;
  oldId: string;
  name: string;
  build: (resolve: Resolve) => Record<string, unknown>;
}

/** A campaign with the records only it uses (its flow, its redirect URLs as offers): all written or none. */
export interface PlannedCampaign {
  oldId: string;
  name: string;
  records: PlannedRecord[];
  /**
   * The campaign's links on the old tracker (Keitaro's alias, Binom's key): once imported, those URLs
   * answer as the campaign's own (store/old-links.ts).
   */
  oldLinks: { tracker: 'keitaro' | 'binom'; key: string }[];
}

/** A domain, kept by the domains' own service (its name is unique across workspaces). */
export interface PlannedDomain {
  oldId: string;
  name: string;
  httpsOnly: boolean;
  indexCampaignOldId: string | null;
}

export interface ImportPlan {
  /** Records campaigns share (networks, sources, offers, landers), in the order they name each other. */
  shared: PlannedRecord[];
  campaigns: PlannedCampaign[];
  domains: PlannedDomain[];
  leftOut: LeftOut[];
}
