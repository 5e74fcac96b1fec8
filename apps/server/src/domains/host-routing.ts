// Requests on an operator's own domains, sorted out ahead of the click door and Fastify: `/` is a click on
// the index campaign, `/{campaign}` a click on any tracker campaign of the domain's workspace, unknown
// paths go to `not_found`, HTTP goes on to HTTPS when asked, and a domain without the dashboard never
// reaches it (no page, no /api, so no session cookie). A campaign imported from another tracker also
// answers at its old links there (oldLinkCampaign): Keitaro's `/{alias}` and `?_dmn={alias}`, Binom's
// `/click.php?key={key}`. A click is rewritten to `/c/{campaign}` and handed
// on, so it is answered by the same door as any other. The hosts are a map in memory, compiled from the
// domains table whenever one changes; a request costs one Map lookup.
import type { ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import type { TrafficEngine } from '../traffic/engine.js';
import type { FastPath } from '../traffic/http/fast-click.js';

export interface CompiledDomain {
  id: number;
  workspaceId: number;
  indexCampaign: string | null;
  /** null: answer 404. */
  notFoundCampaign: string | null;
  httpsOnly: boolean;
  dashboard: boolean;
  noindex: boolean;
}

const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';
const NOT_FOUND_BODY = JSON.stringify({ message: 'Not found' });
const ALIAS = /^\/([A-Za-z0-9_-]{1,64})$/;
/** A hosted lander's files (landers/serve.ts): served on its own workspace's domains only. */
const LANDER_PATH = /^\/l\/([A-Za-z0-9]{1,64})(?:\/|$)/;
/** The tracker's own public doors, which work on every domain as on the admin host. */
const TRACKER_PATHS =
  /^\/(?:c\/|l\/|v1\/|\.well-known\/acme-challenge\/|postback(?:$|\?)|click\.php(?:$|\?)|[A-Za-z0-9_-]{22,128}\/(?:postback|click\.php)(?:$|\?))/;

export class DomainDirectory {
  private hosts = new Map<string, CompiledDomain>();
  private loading: Promise<void> | null = null;
  private stale = false;

  constructor(
    private readonly db: Kysely<Database>,
    /** SWITCHYARD_PUBLIC_URL's host: the dashboard is always served there, whatever its record says. */
    private readonly adminHost: string | null = null,
  ) {}

  get size(): number {
    return this.hosts.size;
  }

  get(host: string): CompiledDomain | undefined {
    return this.hosts.get(host);
  }

  /** Compiles the active domains again and swaps the map in; changes during a load trigger one more. */
  reload(): Promise<void> {
    this.stale = true;
    this.loading ??= (async () => {
      try {
        while (this.stale) {
          this.stale = false;
          const rows = await this.db
            .selectFrom('domains')
            .select(['id', 'workspace_id', 'name', 'index_campaign', 'not_found', 'https_only', 'dashboard', 'noindex'])
            // The engine's own work: every workspace's domains are served.
            .where(scopeCondition({ instance: true }, 'workspace_id'))
            .where('status', '=', 'active')
            .execute();
          const hosts = new Map<string, CompiledDomain>();
          for (const row of rows) {
            hosts.set(row.name, {
              id: row.id,
              workspaceId: row.workspace_id,
              indexCampaign: row.index_campaign,
              notFoundCampaign: row.not_found === '404' ? null : row.not_found,
              httpsOnly: row.https_only === 1,
              dashboard: row.dashboard === 1 || row.name === this.adminHost,
              noindex: row.noindex === 1,
            });
          }
          this.hosts = hosts;
        }
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }
}

/** The host a request names, lower case, without its port (and without the brackets of an IPv6 one). */
export function requestHost(header: string | undefined): string {
  if (!header) return '';
  const host = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.split(':', 1)[0]!;
  return host.toLowerCase().replace(/\.$/, '');
}

export function domainRouting(
  directory: DomainDirectory,
  engine: TrafficEngine,
  options: { httpsPort: () => number | undefined },
): FastPath {
  const onWorkspace = (campaign: string, workspaceId: number): boolean =>
    engine.routing.tracker.campaigns.get(campaign)?.eventWorkspaceId === workspaceId;
  return (request, response) => {
    const domain = directory.size === 0 ? undefined : directory.get(requestHost(request.headers.host));
    if (!domain) return false;
    const url = request.url ?? '/';
    const question = url.indexOf('?');
    const path = question < 0 ? url : url.slice(0, question);
    const query = question < 0 ? '' : url.slice(question);
    if (domain.noindex) {
      response.setHeader('x-robots-tag', 'noindex');
      if (path === '/robots.txt') return answer(response, 200, 'text/plain; charset=utf-8', ROBOTS_TXT);
    }
    const challenge = path.startsWith('/.well-known/acme-challenge/');
    if (domain.httpsOnly && !challenge && !(request.socket as TLSSocket).encrypted) {
      const port = options.httpsPort();
      const host = requestHost(request.headers.host);
      const location = `https://${host}${port === undefined || port === 443 ? '' : `:${port}`}${url}`;
      response.writeHead(301, { location, 'cache-control': 'no-store', 'content-length': '0' });
      response.end();
      return true;
    }
    const lander = LANDER_PATH.exec(path)?.[1];
    if (lander !== undefined && engine.routing.tracker.landers.get(lander)?.workspaceId !== domain.workspaceId) {
      return answer(response, 404, 'application/json; charset=utf-8', NOT_FOUND_BODY);
    }
    const old = oldLinkCampaign(engine, domain.workspaceId, path, query);
    if (old) {
      request.url = `/c/${old}${query}`;
      return false;
    }
    // An old link naming nothing here is answered as an unknown campaign, whatever its path.
    if (old === undefined) {
      if (TRACKER_PATHS.test(url)) return false;
      if (path === '/' && domain.indexCampaign && onWorkspace(domain.indexCampaign, domain.workspaceId)) {
        request.url = `/c/${domain.indexCampaign}${query}`;
        return false;
      }
      const alias = ALIAS.exec(path)?.[1];
      if (alias !== undefined && onWorkspace(alias, domain.workspaceId)) {
        request.url = `/c/${alias}${query}`;
        return false;
      }
      const keitaro = oldAlias(engine, domain.workspaceId, path);
      if (keitaro) {
        request.url = `/c/${keitaro}${query}`;
        return false;
      }
      // The dashboard's own host, or a domain that serves it: its pages, /api and files are Fastify's.
      if (domain.dashboard) return false;
    }
    if (domain.notFoundCampaign && onWorkspace(domain.notFoundCampaign, domain.workspaceId)) {
      request.url = `/c/${domain.notFoundCampaign}${query}`;
      return false;
    }
    return answer(response, 404, 'application/json; charset=utf-8', NOT_FOUND_BODY);
  };
}

/** A single path segment, as Keitaro's aliases are (decoded; undefined when it is not one). */
const SEGMENT = /^\/([^/]{1,765})$/;

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * The campaign an old link in the query names: Binom's `/click.php?key=` (a click: a postback there
 * carries `cnv_id`), or Keitaro's `_dmn=` on any path but the tracker's own doors. Undefined: the
 * request is no old link; null: an old link that names no campaign here (answered as an unknown
 * campaign is, never handed to the postback door).
 */
function oldLinkCampaign(
  engine: TrafficEngine,
  workspaceId: number,
  path: string,
  query: string,
): string | null | undefined {
  const binom = path === '/click.php';
  if (!binom && !query.includes('_dmn=')) return undefined;
  const params = new URLSearchParams(query);
  if (binom) {
    const key = params.get('key');
    if (!key || params.has('cnv_id')) return undefined;
    return engine.routing.oldLinks.campaign(workspaceId, 'binom', key.trim()) ?? null;
  }
  // The tracker's own doors and a dashboard's API keep their meaning.
  if (TRACKER_PATHS.test(path) || path.startsWith('/api/')) return undefined;
  const alias = params.get('_dmn')?.trim();
  if (!alias) return undefined;
  return engine.routing.oldLinks.campaign(workspaceId, 'keitaro', alias) ?? null;
}

/** Keitaro's `https://domain/{alias}`: the campaign imported with that alias, if it routes. */
function oldAlias(engine: TrafficEngine, workspaceId: number, path: string): string | undefined {
  const segment = SEGMENT.exec(path)?.[1];
  const alias = segment === undefined ? undefined : decoded(segment);
  return alias ? engine.routing.oldLinks.campaign(workspaceId, 'keitaro', alias) : undefined;
}

function answer(response: ServerResponse, status: number, type: string, body: string): true {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
  return true;
}
