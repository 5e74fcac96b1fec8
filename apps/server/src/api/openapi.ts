// `GET /api/openapi.json` describes every /api route, from the routes as registered (an
// onRoute hook sees each one, so a new route cannot be left out) and the domain's zod schemas
// (openapi-routes.ts): each route's query, body and answer, and the one error body of every 4xx.
// `/api/docs` shows the document; in tests every answer is checked against it (answer-check.ts).
import { ZApiErrorBody } from '@switchyard/domain';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { checkAnswers, openApiPath } from './answer-check.js';
import {
  answerSchema,
  type JsonSchema,
  jsonSchema,
  ROUTE_SCHEMAS,
  type RouteSchemas,
  resourceSchemas,
} from './openapi-routes.js';

/** A route as registered. */
interface SeenRoute {
  method: string;
  url: string;
  isPublic: boolean;
}

const ERROR = { $ref: '#/components/schemas/Error' };

function errorAnswer(description: string) {
  return { description, content: { 'application/json': { schema: ERROR } } };
}

/** The success answer: JSON of its schema, a body of another media type, or (204) none. */
function successAnswer(schemas: RouteSchemas): Record<string, unknown> {
  if (schemas.status === 204) return { description: 'Done; nothing is answered' };
  if (schemas.media) return { description: 'Done', content: { [schemas.media]: { schema: { type: 'string' } } } };
  return {
    description: 'Done',
    ...(schemas.response ? { content: { 'application/json': { schema: answerSchema(schemas.response) } } } : {}),
  };
}

/** Records every /api route as it is registered; call before the routes are. */
export function collectApiRoutes(app: FastifyInstance): () => SeenRoute[] {
  const seen: SeenRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/') && route.url !== '/api') return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
      (method) => method !== 'HEAD' && method !== 'OPTIONS',
    );
    const isPublic = Boolean((route.config as { public?: boolean } | undefined)?.public);
    for (const method of methods) seen.push({ method, url: route.url, isPublic });
  });
  return () => seen;
}

export function openApiDocument(routes: readonly SeenRoute[], version: string): JsonSchema {
  const known = resourceSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.url);
    const key = `${route.method} ${path}`;
    const schemas: RouteSchemas = known.get(key) ?? ROUTE_SCHEMAS[key] ?? {};
    const parameters = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
      name: match[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (schemas.query) {
      const query = jsonSchema(schemas.query, 'input');
      for (const [name, schema] of Object.entries((query.properties as Record<string, unknown>) ?? {})) {
        parameters.push({ name, in: 'query', required: false, schema: schema as { type: string } });
      }
    }
    const status = String(schemas.status ?? 200);
    const operation: Record<string, unknown> = {
      operationId: key.replace(/[^A-Za-z0-9]+/g, '_'),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(schemas.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(schemas.body, 'input') } },
            },
          }
        : {}),
      ...(route.isPublic ? { security: [] } : {}),
      responses: {
        [status]: successAnswer(schemas),
        '400': errorAnswer('Invalid input: { message, errors: { field: [messages] } }'),
        ...(route.isPublic
          ? {}
          : { '401': errorAnswer('No live session or token'), '403': errorAnswer('Not permitted') }),
        ...(parameters.some((parameter) => parameter.in === 'path') ? { '404': errorAnswer('Not found') } : {}),
        ...(route.method === 'GET' ? {} : { '409': errorAnswer('In conflict with what is stored') }),
        // Reports wait for the report engine, behind the clicks.
        ...(key === 'GET /api/reports'
          ? { '503': errorAnswer('Reports are busy: the report waited too long; ask again after Retry-After seconds') }
          : {}),
      },
    };
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Switchyard API', version },
    servers: [{ url: '/' }],
    components: {
      schemas: { Error: jsonSchema(ZApiErrorBody, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A session token, or an API token (syt_…)' },
      },
    },
    security: [{ bearer: [] }],
    paths,
  };
}

/** `/api/docs`: the document as a page — each route, its parameters and its schemas. */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Switchyard API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}h2{font-size:1rem;margin:1.5rem 0 .25rem}
code{background:#f1f3f5;padding:0 .25rem}details{margin:.25rem 0 .75rem}pre{background:#f8f9fa;padding:.5rem;overflow:auto}</style>
</head><body><h1>Switchyard API</h1><p>The OpenAPI document: <a href="/api/openapi.json">/api/openapi.json</a>.
Send <code>Authorization: Bearer &lt;token&gt;</code> with a session token or an API token.</p><main id="routes">Loading…</main>
<script src="/api/docs.js"></script></body></html>`;
}

/** The page's script (a file of its own: the content security policy allows no inline script). */
export const DOCS_SCRIPT = `fetch('/api/openapi.json').then((r) => r.json()).then((doc) => {
  const main = document.getElementById('routes');
  main.textContent = '';
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const h = document.createElement('h2');
      h.textContent = method.toUpperCase() + ' ' + path;
      main.append(h);
      const d = document.createElement('details');
      const s = document.createElement('summary');
      s.textContent = 'Parameters and schemas';
      const pre = document.createElement('pre');
      pre.textContent = JSON.stringify({ parameters: op.parameters, requestBody: op.requestBody, responses: op.responses }, null, 2);
      d.append(s, pre);
      main.append(d);
    }
  }
});`;

export interface OpenApiOptions {
  /** Check every JSON answer against the document (tests; answer-check.ts). */
  checkAnswers?: boolean;
}

export function openApiRoutes(
  app: FastifyInstance,
  routes: () => SeenRoute[],
  version: string,
  options: OpenApiOptions = {},
): void {
  let built: JsonSchema | null = null;
  // Built on first use: by then every route is registered.
  const document = () => {
    built ??= openApiDocument(routes(), version);
    return built;
  };
  const config = { config: { public: true } } as const;
  app.get('/openapi.json', config, async () => document());
  app.get('/docs', config, async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage()));
  app.get('/docs.js', config, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DOCS_SCRIPT),
  );
  if (options.checkAnswers) checkAnswers(app, document);
}
