// An affiliate network's record carries `postback_url`, the address its postbacks go to: the
// tracker's origin and its workspace's postback key, `https://track.example.com/{key}/postback`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';

const NETWORK_ROUTES = '/api/affiliate-networks';

type NetworkRecord = Record<string, unknown> & { workspace_id?: number | null };

/** The tracker's origin: SWITCHYARD_PUBLIC_URL, else the one the dashboard was reached at. */
function originOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

export function networkPostbackUrls(app: FastifyInstance, db: Kysely<Database>, publicUrl: string | undefined): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode >= 300 || !request.routeOptions.url?.startsWith(NETWORK_ROUTES)) return payload;
    if (typeof payload !== 'object' || payload === null) return payload;
    const body = payload as { list?: NetworkRecord[] } & NetworkRecord;
    const records = Array.isArray(body.list) ? body.list : 'external_id' in body ? [body] : [];
    if (records.length === 0) return payload;
    // Records of no workspace belong to the first one (the only one, on most trackers).
    const keys = await db
      .selectFrom('workspaces')
      .select(['id', 'postback_key'])
      .where('status', '=', 'active')
      .orderBy('id')
      .execute();
    const keyOf = (workspaceId: number | null | undefined) =>
      (keys.find((workspace) => workspace.id === workspaceId) ?? keys[0])?.postback_key ?? null;
    const origin = originOf(request, publicUrl);
    const decorated = records.map((record) => {
      const key = keyOf(record.workspace_id);
      return { ...record, postback_url: key ? `${origin}/${key}/postback` : null };
    });
    return Array.isArray(body.list) ? { ...body, list: decorated } : decorated[0];
  });
}
