// Issue 21: `GET /api/openapi.json` describes every /api route, from the routes as registered (an
// onRoute hook sees each one, so a new route cannot be left out) and the domain's zod schemas: each
// resource's form is its request body and, with the record's own fields, its answer; queries and bodies
// of the other routes come from their domain schemas (ROUTE_SCHEMAS). `/api/docs` shows the document.
import {
  RESOURCES,
  type ResourceDefinition,
  ZAcceptInviteForm,
  ZAccountSettings,
  ZApiTokenForm,
  ZCostUpdate,
  ZCustomMetricForm,
  ZEventQuery,
  ZForgotPasswordForm,
  ZHistoryQuery,
  ZInvitationForm,
  ZListQuery,
  ZLoginForm,
  ZOutboundPostbackQuery,
  ZPasswordChangeForm,
  ZPostbackLogQuery,
  ZProfileForm,
  ZRegisterForm,
  ZReportQuery,
  ZReportViewForm,
  ZResetPasswordForm,
} from '@switchyard/domain';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/** What the document says of a route beyond its method and path. */
interface RouteSchemas {
  query?: z.ZodType;
  body?: z.ZodType;
  /** The answer's schema, for routes that answer a record or a list of records. */
  response?: JsonSchema;
  status?: number;
}

/** A route as registered. */
interface SeenRoute {
  method: string;
  url: string;
  isPublic: boolean;
}

/** Request schemas of the routes that are not resource routes, by `METHOD /api/path`. */
const ROUTE_SCHEMAS: Record<string, Omit<RouteSchemas, 'response'>> = {
  'POST /api/login': { body: ZLoginForm },
  'POST /api/register': { body: ZRegisterForm },
  'POST /api/forgot-password': { body: ZForgotPasswordForm },
  'POST /api/reset-password': { body: ZResetPasswordForm },
  'POST /api/accept-invite': { body: ZAcceptInviteForm },
  'POST /api/invitations': { body: ZInvitationForm },
  'PUT /api/account-settings': { body: ZAccountSettings },
  'PUT /api/profile': { body: ZProfileForm },
  'POST /api/profile/password': { body: ZPasswordChangeForm },
  'POST /api/tokens': { body: ZApiTokenForm, status: 201 },
  'GET /api/reports': { query: ZReportQuery },
  'POST /api/report-metrics': { body: ZCustomMetricForm, status: 201 },
  'PUT /api/report-metrics/{id}': { body: ZCustomMetricForm },
  'POST /api/report-views': { body: ZReportViewForm, status: 201 },
  'PUT /api/report-views/{id}': { body: ZReportViewForm },
  'GET /api/history': { query: ZHistoryQuery },
  'GET /api/events/clicks': { query: ZEventQuery },
  'GET /api/events/leads': { query: ZEventQuery },
  'GET /api/events/conversions': { query: ZEventQuery },
  'GET /api/postback-log': { query: ZPostbackLogQuery },
  'GET /api/outbound-postbacks': { query: ZOutboundPostbackQuery },
  'POST /api/tracker/campaigns/{id}/costs': { body: ZCostUpdate },
};

/** JSON Schema of a zod schema: as a request is sent (`input`) or as the server keeps it (`output`). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** An answer carries more than its form (computed fields, notices): objects stay open in answers. */
function open(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(open);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    result[key] = open(value);
  }
  return result;
}

/** A stored record of `definition`: its form's fields as kept, its id, status and times. */
export function recordSchema(definition: ResourceDefinition): JsonSchema {
  const form = definition.form ? (open(jsonSchema(definition.form, 'output')) as JsonSchema) : { type: 'object' };
  const properties = (form.properties as Record<string, unknown> | undefined) ?? {};
  const id = definition.idField === 'id' ? { type: 'integer' } : { type: 'string' };
  return {
    ...form,
    type: 'object',
    properties: {
      ...properties,
      [definition.idField]: id,
      ...(definition.archivable ? { status: { type: 'string', enum: ['active', 'archived'] } } : {}),
    },
    required: [...new Set([...((form.required as string[] | undefined) ?? []), definition.idField])],
  };
}

function listSchema(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { list: { type: 'array', items: item }, total: { type: 'integer', minimum: 0 } },
    required: ['list', 'total'],
  };
}

/** The schemas of a resource's routes, by `METHOD /api/path`. */
function resourceSchemas(): Map<string, RouteSchemas> {
  const schemas = new Map<string, RouteSchemas>();
  for (const definition of RESOURCES) {
    const base = `/api/${definition.apiPath}`;
    const record = recordSchema(definition);
    schemas.set(`GET ${base}`, { query: ZListQuery, response: listSchema(record) });
    schemas.set(`GET ${base}/{id}`, { response: record });
    if (definition.form) schemas.set(`POST ${base}`, { body: definition.form, response: record, status: 201 });
    const update = definition.updateForm ?? definition.form;
    if (update) schemas.set(`PUT ${base}/{id}`, { body: update, response: record });
    schemas.set(`PUT ${base}/{id}/archive`, { response: record });
    schemas.set(`PUT ${base}/{id}/restore`, { response: record });
    schemas.set(`POST ${base}/{id}/clone`, { response: record, status: 201 });
  }
  return schemas;
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

/** `/api/offers/:id/archive` → `/api/offers/{id}/archive`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
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
        [status]: {
          description: 'Done',
          content: { 'application/json': { schema: schemas.response ?? { type: 'object' } } },
        },
        '400': { description: 'Invalid input: { message, errors: { field: [messages] } }' },
        ...(route.isPublic
          ? {}
          : { '401': { description: 'No live session or token' }, '403': { description: 'Not permitted' } }),
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

export function openApiRoutes(app: FastifyInstance, routes: () => SeenRoute[], version: string): void {
  let document: JsonSchema | null = null;
  const config = { config: { public: true } } as const;
  app.get('/openapi.json', config, async () => {
    document ??= openApiDocument(routes(), version);
    return document;
  });
  app.get('/docs', config, async (_request, reply) => reply.type('text/html; charset=utf-8').send(docsPage()));
  app.get('/docs.js', config, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DOCS_SCRIPT),
  );
}
