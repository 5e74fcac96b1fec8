// A live Binom read through its v2 API (https://docs.binom.org/api-v2.php): each kind's ids from
// `GET /public/api/v1/info/{kind}` (paged by `limit`/`offset`), each record from `GET
// /public/api/v1/{kind}/{id}`, the domains from `GET /public/api/v1/domains`; the key in the `api-key`
// header. Through the same checked sender as Keitaro's read (fetch.ts): no internal address unless
// SWITCHYARD_ALLOW_PRIVATE_TARGETS, each answer bounded; a wrong key or an unreachable tracker is a 400
// naming which, and nothing is read further.
import type { TargetOptions } from '../http/outbound-targets.js';
import { getJson, notTheApi } from './fetch.js';

const KINDS = [
  ['affiliate_network', 'affiliate_networks'],
  ['traffic_source', 'traffic_sources'],
  ['offer', 'offers'],
  ['landing', 'landings'],
  ['campaign', 'campaigns'],
] as const;
const PAGE = 500;
/** A tracker that pages forever is not read forever. */
const MAX_PAGES = 40;

export async function readBinom(
  base: string,
  apiKey: string,
  targets: TargetOptions,
): Promise<Record<string, unknown>> {
  const root = `${base.replace(/\/+$/, '')}/public/api/v1`;
  const headers = { 'api-key': apiKey };
  const get = (path: string) => getJson(`${root}${path}`, headers, targets);
  const file: Record<string, unknown> = {};
  for (const [kind, list] of KINDS) {
    const ids = new Set<number>();
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const path = `/info/${kind}?datePreset=all_time&timezone=UTC&limit=${PAGE}&offset=${page * PAGE}`;
      const rows = await get(path);
      if (!Array.isArray(rows)) throw notTheApi(`${root}${path}`, 'a JSON list');
      for (const row of rows as { id?: unknown; is_deleted?: unknown }[]) {
        const id = Number(row?.id);
        if (Number.isSafeInteger(id) && id > 0 && row?.is_deleted !== true) ids.add(id);
      }
      if (rows.length < PAGE) break;
    }
    const records: unknown[] = [];
    for (const id of ids) {
      const record = await get(`/${kind}/${id}`);
      if (record === null || typeof record !== 'object' || Array.isArray(record)) {
        throw notTheApi(`${root}/${kind}/${id}`, 'a JSON object');
      }
      records.push({ id, ...record });
    }
    file[list] = records;
  }
  const domains = await get('/domains');
  if (!Array.isArray(domains)) throw notTheApi(`${root}/domains`, 'a JSON list');
  file.domains = domains;
  return file;
}
