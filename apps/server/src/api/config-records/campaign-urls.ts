// A tracker campaign's record carries `campaign_url`, the address its traffic source sends
// clicks to: `/c/{external_id}` on the tracker's public origin, with the source's parameters
// (`?click_id={clickid}&…`), so the list, the create answer and API clients all have it.
import { type CampaignUrlParameter, trackerCampaignUrl } from '@switchyard/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

const CAMPAIGN_ROUTES = '/api/tracker/campaigns';

type CampaignRecord = Record<string, unknown> & { external_id?: unknown; traffic_source_external_id?: unknown };

/** The tracker's origin: SWITCHYARD_PUBLIC_URL, else the one the dashboard was reached at. */
function originOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The parameters of each traffic source named, by external id. */
async function sourceParameters(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, CampaignUrlParameter[]>> {
  const parameters = new Map<string, CampaignUrlParameter[]>();
  if (ids.length === 0) return parameters;
  const rows = await db
    .selectFrom('config_records')
    .select(['external_id', 'body'])
    .where('kind', '=', 'traffic-sources')
    .where('external_id', 'in', [...ids])
    .execute();
  for (const row of rows) {
    const body = JSON.parse(row.body) as { parameters?: unknown };
    parameters.set(row.external_id, Array.isArray(body.parameters) ? (body.parameters as CampaignUrlParameter[]) : []);
  }
  return parameters;
}

export function trackerCampaignUrls(app: FastifyInstance, db: Kysely<Database>, publicUrl: string | undefined): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || !request.routeOptions.url?.startsWith(CAMPAIGN_ROUTES)) return payload;
    if (typeof payload !== 'object' || payload === null) return payload;
    const body = payload as { list?: CampaignRecord[] } & CampaignRecord;
    const records = Array.isArray(body.list) ? body.list : 'external_id' in body ? [body] : [];
    if (records.length === 0) return payload;
    const sourceIds = [
      ...new Set(records.map((record) => record.traffic_source_external_id).filter((id) => typeof id === 'string')),
    ] as string[];
    const parameters = await sourceParameters(db, sourceIds);
    const origin = originOf(request, publicUrl);
    const decorated = records.map((record) =>
      typeof record.external_id === 'string'
        ? {
            ...record,
            campaign_url: trackerCampaignUrl(
              origin,
              record.external_id,
              parameters.get(String(record.traffic_source_external_id)),
            ),
          }
        : record,
    );
    return Array.isArray(body.list) ? { ...body, list: decorated } : decorated[0];
  });
}
