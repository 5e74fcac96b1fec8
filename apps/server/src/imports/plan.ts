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

/** A planned path group, built once the ids it names are known. */
export type PlannedGroup = (resolve: Resolve) => Record<string, unknown>;

/**
 * The traffic sources a plan's campaigns name, and the one stand-in for campaigns whose source is not
 * imported (a campaign needs one here): created once, and only if some campaign needs it.
 */
export class CampaignSources {
  static readonly NONE = 'none';
  private needed = false;

  constructor(
    private readonly imported: ReadonlySet<number>,
    private readonly tracker: 'Keitaro' | 'Binom',
  ) {}

  /** The old id a campaign's source resolves by: its own when imported, else the stand-in's. */
  of(sourceId: number | null | undefined): string {
    if (sourceId != null && this.imported.has(sourceId)) return String(sourceId);
    this.needed = true;
    return CampaignSources.NONE;
  }

  /** The stand-in, when a campaign needs it (written with the shared records). */
  standIn(): PlannedRecord[] {
    if (!this.needed) return [];
    const name = `${this.tracker}: no traffic source`;
    return [
      {
        kind: 'traffic-sources',
        oldKind: 'traffic_source',
        oldId: CampaignSources.NONE,
        name,
        build: () => ({ name }),
      },
    ];
  }
}

/**
 * A campaign's flow (its path groups, in order) and the campaign on it, as every importer writes them;
 * `fields`: the campaign's own settings (cost, state) besides its name, source and flow.
 */
export function flowAndCampaign(
  campaign: { oldId: string; name: string; sourceOldId: string },
  groups: readonly PlannedGroup[],
  fields: Record<string, unknown>,
): PlannedRecord[] {
  const { oldId, name, sourceOldId } = campaign;
  return [
    {
      kind: 'tracker-flows',
      oldKind: 'campaign_flow',
      oldId,
      name,
      build: (resolve) => ({ name, path_groups: groups.map((group) => group(resolve)) }),
    },
    {
      kind: 'tracker-campaigns',
      oldKind: 'campaign',
      oldId,
      name,
      build: (resolve) => ({
        name,
        traffic_source_external_id: resolve('traffic_source', sourceOldId),
        flow_external_id: resolve('campaign_flow', oldId),
        ...fields,
      }),
    },
  ];
}

/**
 * A traffic source with its parameters (each with its `index`, 1…10, which orders them) and cost
 * parameter; its postback URL, which has no place on a source here, is named in what was left out.
 */
export function plannedTrafficSource(
  source: { id: number | string; name: string; hasPostback: boolean },
  parameters: Record<string, unknown>[],
  costParameter: string,
  leaveOut: (item: Omit<LeftOut, 'campaign'>) => void,
): PlannedRecord {
  if (source.hasPostback) {
    leaveOut({
      kind: 'traffic_source_postback',
      old_id: String(source.id),
      name: source.name,
      reason: 'the postback URL is set through postback events here; add it by hand',
    });
  }
  const ordered = [...parameters].sort((a, b) => Number(a.index) - Number(b.index));
  return {
    kind: 'traffic-sources',
    oldKind: 'traffic_source',
    oldId: String(source.id),
    name: source.name,
    build: () => ({
      name: source.name,
      parameters: ordered.map(({ index: _index, ...parameter }) => parameter),
      cost_parameter: /^[A-Za-z0-9_.\-[\]]*$/.test(costParameter) ? costParameter : '',
    }),
  };
}
