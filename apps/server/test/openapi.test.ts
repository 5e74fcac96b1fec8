import { getResource, RESOURCES, type ResourceName } from '@switchyard/domain';
import Ajv2020 from 'ajv/dist/2020.js';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, minimalBody, recordId } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Issue 21: `GET /api/openapi.json` describes every /api route (it is made from the routes as they are
// registered), with request and response schemas from the domain's zod schemas; each resource's answers
// (list, get, create, update) validate against the document's schemas. `/api/docs` shows it.

type Operation = {
  responses: Record<string, { content?: { 'application/json': { schema: object } } }>;
  requestBody?: { content: { 'application/json': { schema: object } } };
  parameters?: { name: string; in: string }[];
};
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Every /api route Fastify holds, as `METHOD /api/path/{param}`, read off its printed route tree. */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/^\/+/, '/');
    if (!match[3] || !path.startsWith('/api/')) continue;
    const documented = path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
    for (const method of match[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${documented}`);
  }
  return routes;
}

forEachDatabase('OpenAPI document', (db) => {
  let app: FastifyInstance;
  let token: string;
  let doc: OpenApi;
  const ajv = new Ajv2020({ strict: false, allErrors: true });

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode, response.body).toBe(200);
    doc = response.json<OpenApi>();
  });

  it('names every /api route Fastify holds, each with its path parameters', () => {
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = registeredRoutes(app);
    expect(registered.length).toBeGreaterThan(150);
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
    for (const route of [
      'POST /api/tokens',
      'GET /api/history',
      'POST /api/tracker/flows/{id}/clone',
      'GET /api/reports',
    ]) {
      expect(documented).toContain(route);
    }
    const archive = doc.paths['/api/tracker/offers/{id}/archive']?.put;
    expect(archive?.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path' })]);
    const tokens = doc.paths['/api/tokens']?.post?.requestBody?.content['application/json'].schema as {
      required: string[];
    };
    expect(tokens.required).toEqual(['name', 'expires_at', 'permissions']);
  });

  const schemaOf = (method: string, path: string, status: string) => {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json'].schema;
    expect(schema, `${method} ${path} ${status}`).toBeDefined();
    return ajv.compile(schema as object);
  };

  const kinds = RESOURCES.filter((definition) => !['workspaces', 'users', 'roles'].includes(definition.name)).map(
    (definition) => definition.name as ResourceName,
  );

  it.each(kinds)('%s: list, get, create and update answers match their schemas', async (name) => {
    const definition = getResource(name);
    const path = `/api/${definition.apiPath}`;
    const created = await app.inject({
      method: 'POST',
      url: path,
      headers: bearer(token),
      payload: await minimalBody(app, token, name),
    });
    expect(created.statusCode, created.body).toBe(201);
    const validCreate = schemaOf('post', path, '201');
    expect(validCreate(created.json()), JSON.stringify(validCreate.errors)).toBe(true);
    const record = await createRecord(app, token, name);
    const id = recordId(definition, record);
    const one = await app.inject({ method: 'GET', url: `${path}/${id}`, headers: bearer(token) });
    const validGet = schemaOf('get', `${path}/{id}`, '200');
    expect(validGet(one.json()), JSON.stringify(validGet.errors)).toBe(true);
    const list = await app.inject({ method: 'GET', url: `${path}?limit=5`, headers: bearer(token) });
    const validList = schemaOf('get', path, '200');
    expect(validList(list.json()), JSON.stringify(validList.errors)).toBe(true);
    // The schema can fail: a record without its id does not pass.
    const { [definition.idField]: _id, ...withoutId } = one.json<Record<string, unknown>>();
    expect(validGet(withoutId)).toBe(false);
    expect(validList({ list: [withoutId], total: 1 })).toBe(false);
  });

  it('shows the document at /api/docs without a session', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<script src="/api/docs.js"></script>');
    const script = await app.inject({ method: 'GET', url: '/api/docs.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain("fetch('/api/openapi.json')");
  });
});
