import { getResource, RESOURCES, type ResourceName } from '@switchyard/domain';
import Ajv2020 from 'ajv/dist/2020.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers } from '../src/api/answer-check.js';
import { createRecord, minimalBody, recordId } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// `GET /api/openapi.json` describes every /api route (it is made from the routes as they are
// registered), with request and response schemas from the domain's zod schemas; each resource's answers
// (list, get, create, update) validate against the document's schemas. `/api/docs` shows it. Every app
// the harness builds also checks each answer it gives against the document (answer-check.ts).

type Operation = {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
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

  it('gives every /api route the schema of its success answer, or says it answers no JSON', () => {
    const undescribed: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
        const route = `${method.toUpperCase()} ${path}`;
        if (success.length !== 1) {
          undescribed.push(`${route}: ${success.length} success statuses`);
          continue;
        }
        const [status] = success as [string];
        const content = operation.responses[status]?.content;
        if (status === '204') {
          if (content) undescribed.push(`${route}: 204 with a body`);
          continue;
        }
        const json = content?.['application/json']?.schema as Record<string, unknown> | undefined;
        const other = Object.keys(content ?? {}).filter((media) => media !== 'application/json');
        // A bare `{ type: 'object' }` says nothing of the answer.
        const described = json && Object.keys(json).some((key) => key !== 'type');
        if (!described && other.length === 0) undescribed.push(`${route} ${status}`);
      }
    }
    expect(undescribed).toEqual([]);
    expect(Object.keys(doc.paths['/api/docs']?.get?.responses['200']?.content ?? {})).toEqual(['text/html']);
    expect(doc.paths['/api/tokens/{id}']?.delete?.responses['204']).toBeDefined();
    const error = doc.paths['/api/reports']?.get?.responses['400']?.content?.['application/json']?.schema;
    expect(error).toEqual({ $ref: '#/components/schemas/Error' });
  });

  it('describes answers closely enough to refuse a wrong one', async () => {
    const me = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
    const validMe = schemaOf('get', '/api/me', '200');
    expect(validMe(me.json()), JSON.stringify(validMe.errors)).toBe(true);
    expect(validMe({ ...me.json<object>(), id: 'one' })).toBe(false);
    const report = await app.inject({ method: 'GET', url: '/api/reports?group_by=country', headers: bearer(token) });
    expect(report.statusCode, report.body).toBe(200);
    const validReport = schemaOf('get', '/api/reports', '200');
    // Rows keep keys of any grouping; their figures stay numbers.
    const { totals } = report.json<{ totals: object }>();
    const row = { ...totals, label: 'x', region: 'Bavaria', region_name: null };
    expect(validReport({ list: [row], total: 1, totals }), JSON.stringify(validReport.errors)).toBe(true);
    expect(validReport({ list: [{ ...row, clicks: 'many' }], total: 1, totals })).toBe(false);
  });

  const schemaOf = (method: string, path: string, status: string) => {
    const schema = doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema;
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

describe('the answer check', () => {
  const document = {
    paths: {
      '/api/things/{id}': {
        get: {
          responses: {
            '200': {
              content: {
                'application/json': {
                  schema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: { Error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } },
    },
  };

  async function appAnswering(answer: object, status = 200): Promise<FastifyInstance> {
    const app = Fastify();
    await app.register(
      async (api) => {
        checkAnswers(api, () => document);
        api.get('/things/:id', async (_request, reply) => reply.code(status).send(answer));
        api.get('/untold', async () => ({ id: 1 }));
      },
      { prefix: '/api' },
    );
    return app;
  }

  it('lets an answer that matches the document through', async () => {
    const app = await appAnswering({ id: 7 });
    const response = await app.inject({ method: 'GET', url: '/api/things/7' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 7 });
  });

  it('turns an answer the document does not describe into a 500 naming the route', async () => {
    const wrong = await (await appAnswering({ id: 'seven' })).inject({ method: 'GET', url: '/api/things/7' });
    expect(wrong.statusCode).toBe(500);
    expect(wrong.json<{ message: string }>().message).toBe(
      'The answer of GET /api/things/{id} 200 does not match /api/openapi.json',
    );
    const status = await (await appAnswering({ id: 7 }, 201)).inject({ method: 'GET', url: '/api/things/7' });
    expect(status.statusCode).toBe(500);
    const error = await (await appAnswering({ reason: 'gone' }, 404)).inject({ method: 'GET', url: '/api/things/7' });
    expect(error.statusCode).toBe(500);
    const untold = await (await appAnswering({ id: 7 })).inject({ method: 'GET', url: '/api/untold' });
    expect(untold.statusCode).toBe(500);
  });
});
