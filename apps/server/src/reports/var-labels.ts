// The traffic source's own names of the vars, for a report's meta (`labels: { var2: "Zone" }`): the
// source the report is narrowed to (by `filters.traffic_source`, or by its campaign's), else every
// source of the workspace where they agree (a var two sources name differently keeps no label).
import { REPORT_VAR_NAMES, type ReportVarName, type TReportQuery } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

type Labels = Partial<Record<ReportVarName, string>>;

const VAR_NAMES: ReadonlySet<string> = new Set(REPORT_VAR_NAMES);

function body(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A source's labels: each enabled parameter's name (its URL parameter when it has none) by its var. */
export function sourceLabels(sourceBody: Record<string, unknown>): Labels {
  const labels: Labels = {};
  const parameters = Array.isArray(sourceBody.parameters) ? sourceBody.parameters : [];
  for (const parameter of parameters as Record<string, unknown>[]) {
    const token = parameter?.internal_token;
    if (typeof token !== 'string' || !VAR_NAMES.has(token) || parameter.enabled === false) continue;
    const name = typeof parameter.name === 'string' && parameter.name.trim() ? parameter.name : parameter.ts_parameter;
    if (typeof name === 'string' && name.trim()) labels[token as ReportVarName] = name.trim();
  }
  return labels;
}

export async function varLabels(
  db: Kysely<Database>,
  workspaceId: number,
  filters: TReportQuery['filters'],
): Promise<Labels> {
  const records = (kinds: string[], externalId?: string) => {
    let query = db
      .selectFrom('config_records')
      .select(['external_id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .where('kind', 'in', kinds);
    if (externalId !== undefined) query = query.where('external_id', '=', externalId);
    return query.execute();
  };
  let sourceId = typeof filters.traffic_source === 'string' ? filters.traffic_source : undefined;
  if (sourceId === undefined && typeof filters.campaign === 'string') {
    const [campaign] = await records(['tracker-campaigns', 'campaigns'], filters.campaign);
    const named = campaign ? body(campaign.body).traffic_source_external_id : undefined;
    if (typeof named === 'string') sourceId = named;
  }
  const sources = await records(['traffic-sources'], sourceId);
  if (sourceId !== undefined) return sources[0] ? sourceLabels(body(sources[0].body)) : {};
  const agreed: Labels = {};
  const disputed = new Set<string>();
  for (const source of sources) {
    for (const [name, label] of Object.entries(sourceLabels(body(source.body))) as [ReportVarName, string][]) {
      if (agreed[name] !== undefined && agreed[name] !== label) disputed.add(name);
      agreed[name] ??= label;
    }
  }
  for (const name of disputed) delete agreed[name as ReportVarName];
  return agreed;
}
