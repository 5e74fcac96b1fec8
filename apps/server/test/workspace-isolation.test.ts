import { getResource, type ResourceDefinition, type ResourceName, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Every registry resource but workspaces, users and roles (which have modules of their own).
import { CONFIG_RESOURCES } from '../src/api/config-records/routes.js';
import {
  type Body,
  bodyWithReference,
  createRecord,
  minimalBody,
  recordId,
  type StoredRecord,
  uniqueName,
} from './fixtures/config-records.js';
import { IsolationMatrix } from './fixtures/isolation-matrix.js';
import { DE_IP } from './fixtures/traffic.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  forEachDatabase,
  login,
  type TestUser,
} from './harness.js';

// Two workspaces, each with a record of every resource and with events; a member of
// each and a root user; every /api route (lists, gets, creates, updates, archive and restore, reports and
// the postback log): nothing of one workspace is readable or writable from the other. On SQLite and
// PostgreSQL; each suite prints how many (route, case) pairs it checked.

/** Everything but root: the three sections (the money permission comes with `/tracker`). */
const MEMBER_PERMISSIONS = ['/api', '/tracker', '/general'];

type Side = 'A' | 'B';
const OTHER: Record<Side, Side> = { A: 'B', B: 'A' };

type Response = Awaited<ReturnType<FastifyInstance['inject']>>;
interface ListBody {
  list: Record<string, unknown>[];
  total: number;
}

function segmentCondition(...segmentIds: string[]): string {
  return JSON.stringify({
    type: 'AndCondition',
    data: {
      Conditions: [
        { type: 'SegmentCondition', data: { Var: 'segment', Value: { Operation: 'IN', Values: segmentIds } } },
      ],
    },
  });
}

function expectStatus(response: Response, status: number, what: string): void {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 400)}`).toBe(status);
}

/** Another workspace's own record (a workspace): 404, as the contract prefers, or 403. */
function expectRefused(response: Response, what: string): void {
  expect([403, 404], `${what}: got ${response.statusCode} ${response.body.slice(0, 300)}`).toContain(
    response.statusCode,
  );
}

forEachDatabase('workspace isolation', (db) => {
  const matrix = new IsolationMatrix();
  let app: FastifyInstance;
  let rootToken: string;
  const workspace = {} as Record<Side, { id: number; name: string; key: string }>;
  const member = {} as Record<Side, TestUser>;
  /** One active and one archived record of every config resource, per workspace, made by its member. */
  const active = {} as Record<ResourceName, Record<Side, StoredRecord>>;
  const archived = {} as Record<ResourceName, Record<Side, StoredRecord>>;
  /** A body valid in each workspace, per resource (its references are that workspace's records). */
  const validBody = {} as Record<ResourceName, Record<Side, Body>>;

  /** Each workspace's traffic: campaigns, click and lead ids, conversions. */
  const traffic = {} as Record<
    Side,
    { campaign: StoredRecord; apiCampaign: StoredRecord; clicks: string[]; lead: string; convertedClick: string }
  >;

  afterAll(() => {
    const summary = matrix.summary();
    console.info(
      `isolation [${db.kind}]: ${summary.routes} routes, ${summary.cases} route × case checks ` +
        `(${summary.passed} passed, ${summary.failed} failed)` +
        (summary.failed > 0 ? `\n  failed:\n  - ${summary.failedCases.join('\n  - ')}` : ''),
    );
  });

  /** A request as `token`, in `acting` when given (the X-Workspace header). */
  function send(
    token: string,
    method: InjectOptions['method'],
    url: string,
    options: { payload?: unknown; acting?: number; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    return app.inject({
      method,
      url,
      headers: {
        ...bearer(token),
        ...(options.acting !== undefined ? { 'x-workspace': String(options.acting) } : {}),
        ...options.headers,
      },
      ...(options.payload !== undefined ? { payload: options.payload as InjectOptions['payload'] } : {}),
    });
  }

  /** A request by a side's member: no answer may carry the other workspace's postback key. */
  async function as(
    side: Side,
    method: InjectOptions['method'],
    url: string,
    options: { payload?: unknown; acting?: number } = {},
  ): Promise<Response> {
    const response = await send(member[side].token, method, url, options);
    const otherKey = workspace[OTHER[side]].key;
    expect(
      response.body.includes(otherKey),
      `${method} ${url} as ${side}'s member shows ${OTHER[side]}'s postback key`,
    ).toBe(false);
    return response;
  }

  async function readAsOwner(definition: ResourceDefinition, side: Side, record: StoredRecord): Promise<Body> {
    const response = await send(
      member[side].token,
      'GET',
      `/api/${definition.apiPath}/${recordId(definition, record)}`,
    );
    expectStatus(response, 200, `${definition.name} read by its own member`);
    return response.json<Body>();
  }

  function listJson(response: Response, what: string): ListBody {
    expectStatus(response, 200, what);
    return response.json<ListBody>();
  }

  beforeAll(async () => {
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // The traffic sources' postback URLs name 127.0.0.1; nothing is sent (the outbound loop is off).
        SWITCHYARD_ALLOW_PRIVATE_TARGETS: 'true',
      },
      engine: { outbound: { intervalMs: 0 } },
    });
    rootToken = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);

    // A: the seeded "Default"; B: a new one.
    const listed = await send(rootToken, 'GET', '/api/workspaces?limit=0');
    expectStatus(listed, 200, 'workspaces as root');
    const seeded = listed.json<ListBody>().list[0]!;
    const made = await send(rootToken, 'POST', '/api/workspaces', { payload: { name: uniqueName('Workspace B') } });
    expectStatus(made, 201, 'workspace B');
    for (const [side, id] of [
      ['A', Number(seeded.id)],
      ['B', made.json<{ id: number }>().id],
    ] as const) {
      const read = await send(rootToken, 'GET', `/api/workspaces/${id}`, { acting: id });
      expectStatus(read, 200, `workspace ${side} as root`);
      const { name, postback_key } = read.json<{ name: string; postback_key: string }>();
      expect(postback_key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      workspace[side] = { id, name, key: postback_key };
      member[side] = await createUserWithPermissions(app, rootToken, MEMBER_PERMISSIONS, {
        workspaces: [id],
        name: uniqueName(`Member of ${side}`),
      });
    }
    expect(workspace.A.key).not.toBe(workspace.B.key);

    for (const definition of CONFIG_RESOURCES) {
      active[definition.name] = {} as Record<Side, StoredRecord>;
      archived[definition.name] = {} as Record<Side, StoredRecord>;
      validBody[definition.name] = {} as Record<Side, Body>;
      for (const side of ['A', 'B'] as const) {
        const token = member[side].token;
        active[definition.name][side] = await createRecord(app, token, definition.name, {
          name: uniqueName(`${side} ${definition.name}`),
        });
        const toArchive = await createRecord(app, token, definition.name, {
          name: uniqueName(`${side} archived ${definition.name}`),
        });
        const archiving = await send(
          token,
          'PUT',
          `/api/${definition.apiPath}/${recordId(definition, toArchive)}/archive`,
        );
        expectStatus(archiving, 200, `archive ${definition.name} by its own member`);
        archived[definition.name][side] = archiving.json<StoredRecord>();
        validBody[definition.name][side] = await minimalBody(app, token, definition.name);
      }
    }

    // Events: in each workspace a tracker campaign whose conversions are owed to its traffic source, and
    // an API campaign; clicks, a lead, and postbacks with the workspace's own key.
    for (const side of ['A', 'B'] as const) {
      const token = member[side].token;
      const sale = await createRecord(app, token, 'postback-events', {
        name: uniqueName(`${side} Sale`),
        status_values: ['approved'],
      });
      const source = await createRecord(app, token, 'traffic-sources', {
        postback_events: [
          {
            postback_event_external_id: sale.external_id,
            postback_url: 'http://127.0.0.1:9/pb?c={clickid}&p={payout}',
          },
        ],
      });
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      const postbackEvents = [
        { postback_event_external_id: sale.external_id, is_conversion: true, send_to_traffic_source: true },
      ];
      const campaign = await createRecord(app, token, 'tracker-campaigns', {
        name: uniqueName(`${side} traffic campaign`),
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
        postback_events: postbackEvents,
        cost_model: 'CPC',
        cost: 0.5,
      });
      const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api.example/?l={lead_id}' });
      const apiFlow = await createRecord(app, token, 'flows', {
        path_groups: [{ id: 'ag', name: 'All', paths: [{ id: 'ap', offer_external_id: apiOffer.external_id }] }],
      });
      const apiCampaign = await createRecord(app, token, 'campaigns', {
        name: uniqueName(`${side} API campaign`),
        traffic_source_external_id: source.external_id,
        flow_external_id: apiFlow.external_id,
        postback_events: postbackEvents,
      });
      traffic[side] = { campaign, apiCampaign, clicks: [], lead: '', convertedClick: '' };
    }
  });

  async function click(side: Side): Promise<string> {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${traffic[side].campaign.external_id}`,
      remoteAddress: DE_IP,
    });
    expectStatus(response, 302, `click on ${side}'s campaign`);
    const clickId = new URL(String(response.headers.location)).searchParams.get('c') ?? '';
    expect(clickId).not.toBe('');
    traffic[side].clicks.push(clickId);
    return clickId;
  }

  function postback(key: string, query: string): Promise<Response> {
    return app.inject({ method: 'GET', url: `/${key}/postback?${query}`, remoteAddress: '203.0.113.7' });
  }

  // ---------------------------------------------------------------------------------------------------
  describe('every config resource', () => {
    it('has a record of every config resource in each workspace, made by its member, in its workspace', async () => {
      await matrix.cases(async (check) => {
        for (const definition of CONFIG_RESOURCES) {
          for (const side of ['A', 'B'] as const) {
            await check(`POST /api/${definition.apiPath}`, `${side}'s member creates in ${side}`, async () => {
              expect(active[definition.name][side].workspace_id).toBe(workspace[side].id);
              expect(archived[definition.name][side].workspace_id).toBe(workspace[side].id);
              expect((await readAsOwner(definition, side, active[definition.name][side])).workspace_id).toBe(
                workspace[side].id,
              );
            });
          }
        }
        for (const side of ['A', 'B'] as const) {
          await check(
            'GET /api/affiliate-networks/:id',
            `${side}'s network carries ${side}'s postback URL`,
            async () => {
              const network = await readAsOwner(
                getResource('affiliate-networks'),
                side,
                active['affiliate-networks'][side],
              );
              expect(new URL(String(network.postback_url)).pathname).toBe(`/${workspace[side].key}/postback`);
            },
          );
          await check('GET /api/me', `${side}'s member belongs to ${side} only`, async () => {
            const response = await as(side, 'GET', '/api/me');
            expectStatus(response, 200, 'me');
            expect(response.json<{ workspaces: { id: number }[] }>().workspaces.map((one) => one.id)).toEqual([
              workspace[side].id,
            ]);
          });
        }
      });
    });

    for (const definition of CONFIG_RESOURCES) {
      describe(definition.name, () => {
        const base = `/api/${definition.apiPath}`;

        for (const side of ['A', 'B'] as const) {
          const other = OTHER[side];

          it(`lists only ${side}'s records to ${side}'s member, whatever the query`, async () => {
            const theirs = () => [active[definition.name][other], archived[definition.name][other]];
            const mine = () => [active[definition.name][side], archived[definition.name][side]];
            const idOf = (record: Body) => String(record[definition.idField]);
            const queries: [string, string][] = [
              ['', 'default list'],
              ['limit=0', 'limit=0'],
              ['status=all&limit=0', 'status=all'],
              ['status=archived&limit=0', 'status=archived'],
              ['order_by=name&order=desc&limit=0&status=all', 'ordered by name'],
              ['with_relations=true&status=all&limit=0', 'with_relations'],
            ];
            if ((definition.references ?? []).some((reference) => reference.field === 'backup_offer_external_id')) {
              queries.push(['with_backup_chain=true&status=all&limit=0', 'with_backup_chain']);
            }
            await matrix.cases(async (check) => {
              for (const [query, label] of queries) {
                await check(`GET ${base}`, `${side}'s member, ${label}: nothing of ${other}`, async () => {
                  const { list, total } = listJson(await as(side, 'GET', `${base}?${query}`), `${base}?${query}`);
                  const ids = list.map(idOf);
                  for (const record of theirs())
                    expect(ids, `${other}'s ${idOf(record)} listed`).not.toContain(idOf(record));
                  for (const record of list) {
                    expect(record.workspace_id, `${idOf(record)} of another workspace`).toBe(workspace[side].id);
                  }
                  if (query.includes('limit=0')) expect(total).toBe(list.length);
                  // The list is not empty for a reason of its own: the side's own records are there.
                  if (query.includes('status=all')) {
                    for (const record of mine()) expect(ids).toContain(idOf(record));
                  }
                });
              }
              for (const record of theirs()) {
                await check(
                  `GET ${base}`,
                  `${side}'s member searches ${other}'s ${record.status} record by name`,
                  async () => {
                    const url = `${base}?status=all&limit=0&search=${encodeURIComponent(record.name)}`;
                    const found = listJson(await as(side, 'GET', url), url);
                    expect(found).toEqual({ list: [], total: 0 });
                  },
                );
              }
              await check(`GET ${base}`, `${side}'s member finds their own record by name (control)`, async () => {
                const record = active[definition.name][side];
                const url = `${base}?search=${encodeURIComponent(record.name)}`;
                expect(listJson(await as(side, 'GET', url), url).list.map(idOf)).toEqual([idOf(record)]);
              });
              if (definition.withChainApiPath) {
                const chainBase = `/api/${definition.withChainApiPath}`;
                await check(`GET ${chainBase}`, `${side}'s member: nothing of ${other}`, async () => {
                  const url = `${chainBase}?status=all&limit=0`;
                  const { list } = listJson(await as(side, 'GET', url), url);
                  const ids = list.map(idOf);
                  for (const record of theirs()) expect(ids).not.toContain(idOf(record));
                  for (const record of mine()) expect(ids).toContain(idOf(record));
                });
                await check(`GET ${chainBase}`, `${side}'s member searches ${other}'s record by name`, async () => {
                  const url = `${chainBase}?status=all&search=${encodeURIComponent(active[definition.name][other].name)}`;
                  expect(listJson(await as(side, 'GET', url), url)).toEqual({ list: [], total: 0 });
                });
              }
            });
          });

          it(`answers 404 to ${side}'s member for ${other}'s records, and leaves them unchanged`, async () => {
            const target = active[definition.name][other];
            const targetArchived = archived[definition.name][other];
            const before = await readAsOwner(definition, other, target);
            const beforeArchived = await readAsOwner(definition, other, targetArchived);
            const id = recordId(definition, target);
            const archivedId = recordId(definition, targetArchived);
            await matrix.cases(async (check) => {
              await check(`GET ${base}/:id`, `${side}'s member, ${other}'s active record`, async () => {
                expectStatus(await as(side, 'GET', `${base}/${id}`), 404, 'get');
              });
              await check(`GET ${base}/:id`, `${side}'s member, ${other}'s archived record`, async () => {
                expectStatus(await as(side, 'GET', `${base}/${archivedId}`), 404, 'get archived');
              });
              await check(
                `PUT ${base}/:id`,
                `${side}'s member, ${other}'s record, a body valid in ${side}`,
                async () => {
                  const payload = { ...validBody[definition.name][side], name: uniqueName('hijacked') };
                  expectStatus(await as(side, 'PUT', `${base}/${id}`, { payload }), 404, 'update');
                },
              );
              await check(
                `PUT ${base}/:id`,
                `${side}'s member, ${other}'s record, a body valid in ${other}`,
                async () => {
                  const payload = { ...validBody[definition.name][other], name: uniqueName('hijacked') };
                  expectStatus(await as(side, 'PUT', `${base}/${id}`, { payload }), 404, 'update');
                },
              );
              await check(`PUT ${base}/:id/archive`, `${side}'s member, ${other}'s active record`, async () => {
                expectStatus(await as(side, 'PUT', `${base}/${id}/archive`), 404, 'archive');
              });
              await check(`PUT ${base}/:id/restore`, `${side}'s member, ${other}'s archived record`, async () => {
                expectStatus(await as(side, 'PUT', `${base}/${archivedId}/restore`), 404, 'restore');
              });
              await check(`PUT ${base}/:id/archive`, `${side}'s member, ${other}'s archived record`, async () => {
                expectStatus(await as(side, 'PUT', `${base}/${archivedId}/archive`), 404, 'archive archived');
              });
              await check(`GET ${base}/:id`, `${other}'s records unchanged after ${side}'s attempts`, async () => {
                expect(await readAsOwner(definition, other, target)).toEqual(before);
                expect(await readAsOwner(definition, other, targetArchived)).toEqual(beforeArchived);
                expect(before.status).toBe('active');
                expect(beforeArchived.status).toBe('archived');
              });
            });
          });

          const references = [
            ...(definition.references ?? []),
            ...(definition.withChainApiPath ? [{ field: 'condition', resource: definition.name }] : []),
          ];
          if (references.length > 0) {
            it(`refuses ${side}'s member a reference to ${other}'s record, with 400 on the field`, async () => {
              const own = active[definition.name][side];
              const ownBefore = await readAsOwner(definition, side, own);
              await matrix.cases(async (check) => {
                for (const reference of references) {
                  const target = getResource(reference.resource);
                  const theirs = active[reference.resource][other];
                  const { body, path } =
                    reference.field === 'condition'
                      ? { body: { condition: segmentCondition(String(theirs.external_id)) }, path: 'condition' }
                      : bodyWithReference(reference.field, theirs[target.idField]);
                  const payload = { ...validBody[definition.name][side], name: uniqueName('cross'), ...body };
                  await check(
                    `POST ${base}`,
                    `${side}'s member names ${other}'s ${reference.resource} at ${reference.field}`,
                    async () => {
                      const response = await as(side, 'POST', base, { payload });
                      expectStatus(response, 400, 'create');
                      const { errors } = response.json<{ errors?: Record<string, string[]> }>();
                      expect(errors?.[path], JSON.stringify(errors)).toEqual([VALIDATION_MESSAGES.unknownReference]);
                      const search = `${base}?status=all&limit=0&search=${encodeURIComponent(payload.name)}`;
                      for (const owner of ['A', 'B'] as const) {
                        expect(listJson(await send(member[owner].token, 'GET', search), search).total).toBe(0);
                      }
                    },
                  );
                  await check(
                    `PUT ${base}/:id`,
                    `${side}'s member names ${other}'s ${reference.resource} at ${reference.field}`,
                    async () => {
                      const response = await as(side, 'PUT', `${base}/${recordId(definition, own)}`, { payload });
                      expectStatus(response, 400, 'update');
                      const { errors } = response.json<{ errors?: Record<string, string[]> }>();
                      expect(errors?.[path], JSON.stringify(errors)).toEqual([VALIDATION_MESSAGES.unknownReference]);
                    },
                  );
                }
                await check(`PUT ${base}/:id`, `${side}'s record unchanged after refused references`, async () => {
                  expect(await readAsOwner(definition, side, own)).toEqual(ownBefore);
                });
              });
            });
          }
        }

        it('root acts in the workspace the header names, and in its own (A) without it', async () => {
          await matrix.cases(async (check) => {
            const idOf = (record: Body) => String(record[definition.idField]);
            const ids = async (acting?: number) =>
              listJson(
                await send(rootToken, 'GET', `${base}?status=all&limit=0`, acting === undefined ? {} : { acting }),
                `${base} as root`,
              ).list.map(idOf);
            await check(`GET ${base}`, 'root without the header: A only', async () => {
              const listed = await ids();
              expect(listed).toContain(idOf(active[definition.name].A));
              expect(listed).not.toContain(idOf(active[definition.name].B));
            });
            await check(`GET ${base}`, 'root with X-Workspace B: B only', async () => {
              const listed = await ids(workspace.B.id);
              expect(listed).toContain(idOf(active[definition.name].B));
              expect(listed).not.toContain(idOf(active[definition.name].A));
            });
            await check(`GET ${base}/:id`, "root with X-Workspace B reads B's record; without it, 404", async () => {
              const id = recordId(definition, active[definition.name].B);
              expectStatus(await send(rootToken, 'GET', `${base}/${id}`, { acting: workspace.B.id }), 200, 'root in B');
              expectStatus(await send(rootToken, 'GET', `${base}/${id}`), 404, 'root in A');
            });
            await check(`POST ${base}`, 'root with X-Workspace B creates in B', async () => {
              const payload = { ...validBody[definition.name].B, name: uniqueName('root in B') };
              const response = await send(rootToken, 'POST', base, { payload, acting: workspace.B.id });
              expectStatus(response, 201, 'create as root in B');
              expect(response.json<Body>().workspace_id).toBe(workspace.B.id);
              const search = `${base}?search=${encodeURIComponent(payload.name)}`;
              expect(listJson(await send(member.B.token, 'GET', search), search).total).toBe(1);
              expect(listJson(await send(member.A.token, 'GET', search), search).total).toBe(0);
            });
            await check(`GET ${base}`, "A's member naming B in X-Workspace: 403", async () => {
              expectStatus(await send(member.A.token, 'GET', base, { acting: workspace.B.id }), 403, 'list');
            });
            await check(`POST ${base}`, "A's member naming B in X-Workspace: 403, nothing created", async () => {
              const payload = { ...validBody[definition.name].B, name: uniqueName('header') };
              expectStatus(
                await send(member.A.token, 'POST', base, { payload, acting: workspace.B.id }),
                403,
                'create',
              );
              const search = `${base}?status=all&search=${encodeURIComponent(payload.name)}`;
              expect(listJson(await send(member.B.token, 'GET', search), search).total).toBe(0);
            });
          });
        });
      });
    }
  });

  // ---------------------------------------------------------------------------------------------------
  describe('workspaces', () => {
    it("lists only the member's own workspace; root lists both", async () => {
      await matrix.cases(async (check) => {
        for (const side of ['A', 'B'] as const) {
          const other = OTHER[side];
          for (const query of ['', 'limit=0', `search=${encodeURIComponent(workspace[other].name)}`]) {
            await check(
              'GET /api/workspaces',
              `${side}'s member${query ? `, ${query.split('=')[0]}` : ''}`,
              async () => {
                const { list, total } = listJson(await as(side, 'GET', `/api/workspaces?${query}`), 'workspaces');
                expect(list.map((one) => one.id)).not.toContain(workspace[other].id);
                if (!query.startsWith('search')) expect(list.map((one) => one.id)).toEqual([workspace[side].id]);
                expect(total).toBe(list.length);
              },
            );
          }
        }
        await check('GET /api/workspaces', 'root lists both', async () => {
          const { list } = listJson(await send(rootToken, 'GET', '/api/workspaces?limit=0'), 'workspaces');
          expect(list.map((one) => one.id)).toEqual(expect.arrayContaining([workspace.A.id, workspace.B.id]));
        });
      });
    });

    for (const side of ['A', 'B'] as const) {
      const other = OTHER[side];
      it(`refuses ${side}'s member ${other}'s workspace: read, update, key rotation; ${other} unchanged`, async () => {
        const read = () => send(rootToken, 'GET', `/api/workspaces/${workspace[other].id}`);
        const before = (await read()).json<Body>();
        await matrix.cases(async (check) => {
          await check('GET /api/workspaces/:id', `${side}'s member, ${other}`, async () => {
            expectRefused(await as(side, 'GET', `/api/workspaces/${workspace[other].id}`), 'get');
          });
          await check('PUT /api/workspaces/:id', `${side}'s member, ${other}`, async () => {
            const payload = { name: uniqueName('hijacked'), currency: 'EUR' };
            expectRefused(await as(side, 'PUT', `/api/workspaces/${workspace[other].id}`, { payload }), 'update');
          });
          await check('POST /api/workspaces/:id/postback-key', `${side}'s member, ${other}`, async () => {
            expectRefused(await as(side, 'POST', `/api/workspaces/${workspace[other].id}/postback-key`), 'rotate');
          });
          await check('GET /api/workspaces/:id', `${other} unchanged, its key too`, async () => {
            expect((await read()).json<Body>()).toEqual(before);
            expect(before.postback_key).toBe(workspace[other].key);
          });
          await check('GET /api/workspaces/:id', `${side}'s member reads ${side} (control)`, async () => {
            const response = await as(side, 'GET', `/api/workspaces/${workspace[side].id}`);
            expectStatus(response, 200, 'own workspace');
            expect(response.json<Body>().postback_key).toBe(workspace[side].key);
          });
        });
      });
    }

    it('needs the update permission too: a member who may only read cannot change their own workspace', async () => {
      const reader = await createUserWithPermissions(app, rootToken, ['/general/workspace/get'], {
        workspaces: [workspace.A.id],
      });
      const read = () => send(rootToken, 'GET', `/api/workspaces/${workspace.A.id}`);
      const before = (await read()).json<Body>();
      await matrix.cases(async (check) => {
        await check('PUT /api/workspaces/:id', 'a reader of A, A: 403', async () => {
          const payload = { name: uniqueName('renamed'), currency: 'USD' };
          expectStatus(
            await send(reader.token, 'PUT', `/api/workspaces/${workspace.A.id}`, { payload }),
            403,
            'update',
          );
        });
        await check('POST /api/workspaces/:id/postback-key', 'a reader of A, A: 403', async () => {
          expectStatus(
            await send(reader.token, 'POST', `/api/workspaces/${workspace.A.id}/postback-key`),
            403,
            'rotate',
          );
        });
        await check('GET /api/workspaces/:id', 'A unchanged after the reader', async () => {
          expect((await read()).json<Body>()).toEqual(before);
        });
      });
    });
  });

  // ---------------------------------------------------------------------------------------------------
  describe('users and invitations', () => {
    /** Users of one workspace each, and one of both. */
    const only = {} as Record<Side, TestUser>;
    let both: TestUser;
    const invitation = {} as Record<Side, number>;

    beforeAll(async () => {
      for (const side of ['A', 'B'] as const) {
        only[side] = await createUserWithPermissions(app, rootToken, ['/tracker/reports/get'], {
          workspaces: [workspace[side].id],
          name: uniqueName(`Only ${side}`),
        });
        const invited = await send(member[side].token, 'POST', '/api/invitations', {
          payload: { email: `invitee-${side.toLowerCase()}-${Date.now()}@test.local`, name: `Invitee of ${side}` },
        });
        expectStatus(invited, 201, `invitation by ${side}'s member`);
        invitation[side] = invited.json<{ invitation: { id: number } }>().invitation.id;
      }
      both = await createUserWithPermissions(app, rootToken, ['/tracker/reports/get'], {
        workspaces: [workspace.A.id, workspace.B.id],
        name: uniqueName('Both'),
      });
    });

    for (const side of ['A', 'B'] as const) {
      const other = OTHER[side];

      it(`${side}'s administrator sees only ${side}'s users`, async () => {
        await matrix.cases(async (check) => {
          const otherUsers = () => [only[other].id, member[other].id];
          for (const query of ['', 'limit=0', 'status=all&limit=0']) {
            await check(
              'GET /api/users',
              `${side}'s member${query ? `, ${query}` : ''}: no ${other}-only user`,
              async () => {
                const { list } = listJson(await as(side, 'GET', `/api/users?${query}`), 'users');
                const ids = list.map((user) => user.id);
                for (const id of otherUsers()) expect(ids).not.toContain(id);
                if (query.includes('limit=0')) {
                  expect(ids).toEqual(expect.arrayContaining([member[side].id, only[side].id, both.id]));
                }
              },
            );
          }
          await check('GET /api/users', `${side}'s member searches ${other}-only user by email`, async () => {
            const url = `/api/users?search=${encodeURIComponent(only[other].email)}`;
            expect(listJson(await as(side, 'GET', url), url)).toEqual({ list: [], total: 0 });
          });
          await check('GET /api/users', `${side}'s member sees the shared user with ${side} only`, async () => {
            const { list } = listJson(await as(side, 'GET', '/api/users?limit=0'), 'users');
            expect(list.find((user) => user.id === both.id)?.workspaces).toEqual([workspace[side].id]);
          });
        });
      });

      it(`answers 404 to ${side}'s administrator for ${other}'s users, and leaves them unchanged`, async () => {
        const read = () => send(rootToken, 'GET', `/api/users/${only[other].id}`);
        const before = (await read()).json<Body>();
        await matrix.cases(async (check) => {
          await check('GET /api/users/:id', `${side}'s member, ${other}-only user`, async () => {
            expectStatus(await as(side, 'GET', `/api/users/${only[other].id}`), 404, 'get');
          });
          await check('PUT /api/users/:id', `${side}'s member, ${other}-only user`, async () => {
            const payload = {
              name: 'Hijacked',
              email: only[other].email,
              password: 'a-new-password-1234',
              permissions: ['/general'],
              workspaces: [workspace[side].id],
            };
            expectStatus(await as(side, 'PUT', `/api/users/${only[other].id}`, { payload }), 404, 'update');
          });
          await check('GET /api/users/:id', `${other}-only user unchanged, still signs in`, async () => {
            expect((await read()).json<Body>()).toEqual(before);
            await login(app, only[other].email, only[other].password);
          });
          await check(
            'PUT /api/users/:id',
            `${side}'s member edits the shared user: ${other} membership kept`,
            async () => {
              const payload = {
                name: both.email,
                email: both.email,
                permissions: ['/tracker/reports/get'],
                workspaces: [workspace[side].id],
              };
              expectStatus(await as(side, 'PUT', `/api/users/${both.id}`, { payload }), 200, 'update shared');
              const full = await send(rootToken, 'GET', `/api/users/${both.id}`);
              expect(full.json<{ workspaces: number[] }>().workspaces.sort()).toEqual(
                [workspace.A.id, workspace.B.id].sort(),
              );
            },
          );
        });
      });

      it(`lets ${side}'s administrator add users only to ${side}`, async () => {
        await matrix.cases(async (check) => {
          const body = (email: string) => ({
            name: 'New',
            email,
            password: 'a-new-password-1234',
            permissions: ['/tracker/reports/get'],
          });
          await check('POST /api/users', `${side}'s member names ${other} in workspaces: 400`, async () => {
            const email = `cross-${side}-${Date.now()}@test.local`;
            const response = await as(side, 'POST', '/api/users', {
              payload: { ...body(email), workspaces: [workspace[other].id] },
            });
            expectStatus(response, 400, 'create');
            expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors ?? {})).toContain(
              'workspaces',
            );
            const search = `/api/users?status=all&search=${encodeURIComponent(email)}`;
            expect(listJson(await send(rootToken, 'GET', search), search).total).toBe(0);
          });
          await check('POST /api/users', `${side}'s member creates a user: in ${side}`, async () => {
            const email = `made-by-${side}-${Date.now()}@test.local`;
            const response = await as(side, 'POST', '/api/users', { payload: body(email) });
            expectStatus(response, 201, 'create');
            const { id } = response.json<{ id: number }>();
            const full = await send(rootToken, 'GET', `/api/users/${id}`);
            expect(full.json<{ workspaces: number[] }>().workspaces).toEqual([workspace[side].id]);
          });
          await check('PUT /api/users/:id', `${side}'s member puts their own user in ${other}: 400`, async () => {
            const response = await as(side, 'PUT', `/api/users/${only[side].id}`, {
              payload: {
                name: 'Moved',
                email: only[side].email,
                permissions: ['/tracker/reports/get'],
                workspaces: [workspace[other].id],
              },
            });
            expectStatus(response, 400, 'update');
            const full = await send(rootToken, 'GET', `/api/users/${only[side].id}`);
            expect(full.json<{ workspaces: number[] }>().workspaces).toEqual([workspace[side].id]);
          });
        });
      });

      it(`keeps ${other}'s invitations from ${side}'s administrator`, async () => {
        await matrix.cases(async (check) => {
          await check('GET /api/invitations', `${side}'s member: none of ${other}'s`, async () => {
            const { list } = listJson(await as(side, 'GET', '/api/invitations'), 'invitations');
            const ids = list.map((one) => one.id);
            expect(ids).not.toContain(invitation[other]);
            expect(ids).toContain(invitation[side]);
          });
          await check('POST /api/invitations/:id/resend', `${side}'s member, ${other}'s invitation`, async () => {
            expectStatus(await as(side, 'POST', `/api/invitations/${invitation[other]}/resend`), 404, 'resend');
          });
          await check('POST /api/invitations/:id/revoke', `${side}'s member, ${other}'s invitation`, async () => {
            expectStatus(await as(side, 'POST', `/api/invitations/${invitation[other]}/revoke`), 404, 'revoke');
            const { list } = listJson(
              await send(member[other].token, 'GET', '/api/invitations'),
              `invitations of ${other}`,
            );
            expect(list.find((one) => one.id === invitation[other])?.status).toBe('pending');
          });
          await check('POST /api/invitations', `${side}'s member invites to ${other}: 400`, async () => {
            const response = await as(side, 'POST', '/api/invitations', {
              payload: { email: `cross-invite-${side}-${Date.now()}@test.local`, workspaces: [workspace[other].id] },
            });
            expectStatus(response, 400, 'invite');
            expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors ?? {})).toContain(
              'workspaces',
            );
          });
        });
      });
    }

    it("refuses a member's X-Workspace naming the other workspace on users, invitations and workspaces", async () => {
      await matrix.cases(async (check) => {
        for (const route of ['/api/users', '/api/invitations', '/api/workspaces']) {
          await check(`GET ${route}`, "A's member naming B in X-Workspace: 403", async () => {
            expectStatus(await send(member.A.token, 'GET', route, { acting: workspace.B.id }), 403, route);
          });
        }
        await check('GET /api/users', "root with X-Workspace B: B's users, not A-only ones", async () => {
          const { list } = listJson(
            await send(rootToken, 'GET', '/api/users?limit=0', { acting: workspace.B.id }),
            'users as root in B',
          );
          const ids = list.map((user) => user.id);
          expect(ids).toEqual(expect.arrayContaining([member.B.id, only.B.id]));
          expect(ids).not.toContain(only.A.id);
        });
      });
    });
  });

  // ---------------------------------------------------------------------------------------------------
  describe('events: clicks, leads, postbacks, reports and the postback log', () => {
    beforeAll(async () => {
      // A: 3 clicks, B: 4, so that the figures tell them apart (the first converted by a postback, the
      // second offered to the other workspace's import, the last imported); a lead on each API campaign.
      for (const [side, count] of [
        ['A', 3],
        ['B', 4],
      ] as const) {
        for (let index = 0; index < count; index += 1) await click(side);
        const lead = await app.inject({
          method: 'POST',
          url: `/v1/campaigns/${traffic[side].apiCampaign.external_id}/leads`,
          headers: { 'x-api-key': String(traffic[side].apiCampaign.ingest_token) },
          payload: { email: `lead-${side.toLowerCase()}-${Date.now()}@gmail.com`, ip: DE_IP },
        });
        expectStatus(lead, 200, `lead on ${side}'s API campaign`);
        traffic[side].lead = lead.json<{ lead_id: string }>().lead_id;
      }
      await app.engine.flush();
    });

    for (const side of ['A', 'B'] as const) {
      const other = OTHER[side];
      it(`takes postbacks for ${side}'s clicks and leads only with ${side}'s key`, async () => {
        await matrix.cases(async (check) => {
          await check(
            'GET /{key}/postback',
            `${other}'s key, ${side}'s click: 403 refused_key, nothing counted`,
            async () => {
              const clickId = traffic[side].clicks[0]!;
              const response = await postback(
                workspace[other].key,
                `clickid=${clickId}&payout=5&status=approved&txid=x-${side}`,
              );
              expectStatus(response, 403, 'postback');
              const conversions = await app.store.db
                .selectFrom('conversions')
                .select('conversion_id')
                .where('click_id', '=', clickId)
                .execute();
              expect(conversions).toEqual([]);
            },
          );
          await check('GET /{key}/postback', `${other}'s key, ${side}'s lead: 403`, async () => {
            const response = await postback(
              workspace[other].key,
              `lead_id=${traffic[side].lead}&payout=5&status=approved&txid=xl-${side}`,
            );
            expectStatus(response, 403, 'postback');
          });
          await check('GET /{key}/postback', `${side}'s key, ${side}'s click: converted in ${side}`, async () => {
            const clickId = traffic[side].clicks[0]!;
            const response = await postback(
              workspace[side].key,
              `clickid=${clickId}&payout=5&status=approved&txid=ok-${side}`,
            );
            expectStatus(response, 200, 'postback');
            traffic[side].convertedClick = clickId;
            const conversion = await app.store.db
              .selectFrom('conversions')
              .select('workspace_id')
              .where('click_id', '=', clickId)
              .executeTakeFirstOrThrow();
            expect(conversion.workspace_id).toBe(workspace[side].id);
          });
          await check('GET /{key}/postback', `${side}'s key, ${side}'s lead: converted`, async () => {
            const response = await postback(
              workspace[side].key,
              `lead_id=${traffic[side].lead}&payout=3&status=approved&txid=okl-${side}`,
            );
            expectStatus(response, 200, 'postback');
          });
          await check('GET /c/:campaign', `${side}'s clicks land in ${side}`, async () => {
            await app.engine.flush();
            const rows = await app.store.db
              .selectFrom('tracker_clicks')
              .select('campaign_external_id')
              .where('click_id', 'in', traffic[side].clicks)
              .execute();
            expect(rows.map((row) => row.campaign_external_id)).toEqual(
              traffic[side].clicks.map(() => traffic[side].campaign.external_id),
            );
          });
        });
        await app.engine.flush();
      });
    }

    for (const side of ['A', 'B'] as const) {
      const other = OTHER[side];
      const mine = () => [traffic[side].campaign.external_id, traffic[side].apiCampaign.external_id];
      const theirs = () => [traffic[other].campaign.external_id, traffic[other].apiCampaign.external_id];

      it(`reports to ${side}'s member only ${side}'s events`, async () => {
        await matrix.cases(async (check) => {
          const report = async (query: string) => {
            // The clicks here are bots' (a datacenter address, no user agent): counted in.
            const response = await as(side, 'GET', `/api/reports?include_bots=true&${query}`);
            expectStatus(response, 200, `reports?${query}`);
            return response.json<{ list: Record<string, unknown>[]; total: number; totals: Record<string, number> }>();
          };
          await check(
            'GET /api/reports',
            `${side}'s member, group_by=campaign: ${side}'s campaigns and figures`,
            async () => {
              const { list, totals } = await report('group_by=campaign&limit=0');
              const campaigns = list.map((row) => row.campaign);
              for (const id of theirs()) expect(campaigns).not.toContain(id);
              for (const id of campaigns) expect(mine()).toContain(id);
              expect(totals.clicks).toBe(traffic[side].clicks.length);
              expect(totals.leads).toBe(1);
              expect(totals.conversions).toBe(2);
            },
          );
          await check('GET /api/reports', `${side}'s member, dashboard figures (group_by=day)`, async () => {
            const { totals } = await report('group_by=day&limit=0');
            expect(totals.clicks).toBe(traffic[side].clicks.length);
            expect(totals.conversions).toBe(2);
          });
          await check(
            'GET /api/reports',
            `${side}'s member, group_by=traffic_source,offer: nothing of ${other}`,
            async () => {
              const { list, totals } = await report('group_by=traffic_source&group_by=offer&limit=0');
              const body = JSON.stringify(list);
              for (const id of theirs()) expect(body).not.toContain(id);
              expect(totals.clicks).toBe(traffic[side].clicks.length);
            },
          );
          await check('GET /api/reports', `${side}'s member filters by ${other}'s campaign: nothing`, async () => {
            const filters = encodeURIComponent(JSON.stringify({ campaign: traffic[other].campaign.external_id }));
            const { list, totals } = await report(`group_by=campaign&limit=0&filters=${filters}`);
            expect(list).toEqual([]);
            expect(totals.clicks).toBe(0);
            expect(totals.conversions).toBe(0);
          });
        });
      });

      it(`refuses ${side}'s member an import of ${other}'s click, and imports ${side}'s own`, async () => {
        await matrix.cases(async (check) => {
          await check(
            'POST /api/conversions/import',
            `${side}'s member, ${other}'s click: refused_key, not counted`,
            async () => {
              const clickId = traffic[other].clicks[1]!;
              const response = await as(side, 'POST', '/api/conversions/import', {
                payload: { text: `${clickId},approved,7,imp-x-${side}` },
              });
              expectStatus(response, 200, 'import');
              const result = response.json<{ lines: { outcome: string }[]; counted: number; refused: number }>();
              expect(result.lines.map((line) => line.outcome)).toEqual(['refused_key']);
              expect(result.counted).toBe(0);
              const conversions = await app.store.db
                .selectFrom('conversions')
                .select('conversion_id')
                .where('click_id', '=', clickId)
                .execute();
              expect(conversions).toEqual([]);
            },
          );
          await check('POST /api/conversions/import', `${side}'s member, ${other}'s lead: refused_key`, async () => {
            const response = await as(side, 'POST', '/api/conversions/import', {
              payload: { text: `${traffic[other].lead},approved,7,imp-xl-${side}` },
            });
            expectStatus(response, 200, 'import');
            expect(response.json<{ lines: { outcome: string }[] }>().lines.map((line) => line.outcome)).toEqual([
              'refused_key',
            ]);
          });
          await check(
            'POST /api/conversions/import',
            `${side}'s member, ${side}'s click: counted in ${side}`,
            async () => {
              const clickId = traffic[side].clicks.at(-1)!;
              const response = await as(side, 'POST', '/api/conversions/import', {
                payload: { text: `${clickId},approved,7,imp-ok-${side}` },
              });
              expectStatus(response, 200, 'import');
              expect(response.json<{ counted: number }>().counted).toBe(1);
              const conversion = await app.store.db
                .selectFrom('conversions')
                .select('workspace_id')
                .where('click_id', '=', clickId)
                .executeTakeFirstOrThrow();
              expect(conversion.workspace_id).toBe(workspace[side].id);
            },
          );
        });
      });

      it(`shows ${side}'s member only ${side}'s postback log and outbound postbacks`, async () => {
        await matrix.cases(async (check) => {
          const incoming = async (query: string) => {
            const url = `/api/postback-log?limit=1000${query}`;
            return listJson(await as(side, 'GET', url), url);
          };
          await check('GET /api/postback-log', `${side}'s member: only ${side}'s rows`, async () => {
            const { list } = await incoming('');
            expect(list.length).toBeGreaterThan(0);
            const txids = list.map((entry) => entry.txid);
            expect(txids).toEqual(expect.arrayContaining([`ok-${side}`, `okl-${side}`]));
            // What the other workspace's key took, or the other's member imported, is the other's; a
            // postback or import naming a click or lead of the other workspace is refused and logged for
            // root only (c2b3b86), whichever workspace's key it carried.
            const notMine = [`ok-${other}`, `okl-${other}`, `imp-ok-${other}`];
            const crossKey = ['A', 'B'].flatMap((one) => [`x-${one}`, `xl-${one}`, `imp-x-${one}`, `imp-xl-${one}`]);
            for (const txid of [...notMine, ...crossKey]) expect(txids).not.toContain(txid);
            for (const entry of list) {
              const conversion = entry.conversion as { conversion_id: string } | null;
              if (entry.outcome === 'converted') expect(conversion).not.toBeNull();
            }
          });
          await check('GET /api/postback-log', `${side}'s member: no row names ${other}'s campaigns`, async () => {
            // A postback sent with this side's key (or imported here) naming the other's click or lead is
            // this side's row, but the other's campaign is not this side's to see.
            const { list } = await incoming('');
            const leaks = list.flatMap((entry) => {
              const campaign = entry.campaign as { external_id: string; name: string | null } | null;
              return campaign && theirs().includes(campaign.external_id)
                ? [`row ${entry.id} (${entry.outcome}, txid ${entry.txid}) names "${campaign.name}"`]
                : [];
            });
            if (leaks.length > 0)
              throw new Error(`${other}'s campaigns in ${side}'s postback log: ${leaks.join('; ')}`);
          });
          await check(
            'GET /api/postback-log',
            `${side}'s member searches ${other}'s click id and txid: nothing of ${other}`,
            async () => {
              for (const search of [traffic[other].convertedClick, `ok-${other}`, traffic[other].lead]) {
                const { list } = await incoming(`&search=${encodeURIComponent(search)}`);
                for (const entry of list) {
                  // Only a refused postback sent with this side's own key may name the other's id.
                  expect(entry.outcome, JSON.stringify(entry)).toBe('refused_key');
                  expect(entry.conversion).toBeNull();
                }
              }
            },
          );
          await check('GET /api/outbound-postbacks', `${side}'s member: only ${side}'s conversions`, async () => {
            const url = '/api/outbound-postbacks?limit=1000';
            const { list } = listJson(await as(side, 'GET', url), url);
            expect(list.length).toBeGreaterThan(0);
            for (const entry of list) {
              const campaign = entry.campaign as { external_id: string } | null;
              expect(mine()).toContain(campaign?.external_id);
            }
            expect(list.map((entry) => entry.click_id)).not.toContain(traffic[other].convertedClick);
          });
          await check(
            'GET /api/outbound-postbacks',
            `${side}'s member searches ${other}'s click id: nothing`,
            async () => {
              const url = `/api/outbound-postbacks?search=${encodeURIComponent(traffic[other].convertedClick)}`;
              expect(listJson(await as(side, 'GET', url), url)).toEqual({ list: [], total: 0 });
            },
          );
        });
      });
    }

    for (const side of ['A', 'B'] as const) {
      const other = OTHER[side];
      // Simulate, replay and the live stream answer about the acting workspace's traffic only.
      it(`simulates and replays only ${side}'s campaigns and events for ${side}'s member`, async () => {
        await matrix.cases(async (check) => {
          const visitor = { ip: DE_IP };
          for (const [route, campaign] of [
            ['tracker/campaigns', 'campaign'],
            ['campaigns', 'apiCampaign'],
          ] as const) {
            const lead = route === 'campaigns' ? { email: 'sim@gmail.com' } : {};
            await check(`POST /api/${route}/{id}/simulate`, `${side}'s member, ${side}'s campaign: 200`, async () => {
              const url = `/api/${route}/${traffic[side][campaign].external_id}/simulate`;
              expectStatus(await as(side, 'POST', url, { payload: { ...visitor, ...lead } }), 200, url);
            });
            await check(`POST /api/${route}/{id}/simulate`, `${side}'s member, ${other}'s campaign: 404`, async () => {
              const url = `/api/${route}/${traffic[other][campaign].external_id}/simulate`;
              expectStatus(await as(side, 'POST', url, { payload: { ...visitor, ...lead } }), 404, url);
            });
          }
          for (const [kind, id] of [
            ['clicks', (at: Side) => traffic[at].clicks[0] as string],
            ['leads', (at: Side) => traffic[at].lead],
          ] as const) {
            await check(`GET /api/events/${kind}/{id}/replay`, `${side}'s member, ${side}'s event: 200`, async () => {
              expectStatus(await as(side, 'GET', `/api/events/${kind}/${id(side)}/replay`), 200, `${kind} replay`);
            });
            await check(`GET /api/events/${kind}/{id}/replay`, `${side}'s member, ${other}'s event: 404`, async () => {
              expectStatus(await as(side, 'GET', `/api/events/${kind}/${id(other)}/replay`), 404, `${kind} replay`);
            });
          }
          await check('GET /api/live', `${side}'s member naming ${other} in X-Workspace: 403`, async () => {
            expectStatus(await as(side, 'GET', '/api/live', { acting: workspace[other].id }), 403, 'live');
          });
        });
      });
    }

    it('lets root read each workspace through the header; members naming the other get 403', async () => {
      await matrix.cases(async (check) => {
        for (const side of ['A', 'B'] as const) {
          await check('GET /api/reports', `root with X-Workspace ${side}: ${side}'s figures`, async () => {
            const response = await send(rootToken, 'GET', '/api/reports?group_by=campaign&limit=0', {
              acting: workspace[side].id,
            });
            expectStatus(response, 200, 'reports');
            const { list } = response.json<ListBody>();
            const other = OTHER[side];
            const campaigns = list.map((row) => row.campaign);
            expect(campaigns).toContain(traffic[side].campaign.external_id);
            expect(campaigns).not.toContain(traffic[other].campaign.external_id);
          });
          await check('GET /api/postback-log', `root with X-Workspace ${side}: ${side}'s rows`, async () => {
            const response = await send(rootToken, 'GET', '/api/postback-log?limit=1000', {
              acting: workspace[side].id,
            });
            const txids = listJson(response, 'postback log').list.map((entry) => entry.txid);
            const other = OTHER[side];
            expect(txids).toEqual(expect.arrayContaining([`ok-${side}`, `okl-${side}`]));
            for (const txid of [`ok-${other}`, `okl-${other}`]) expect(txids).not.toContain(txid);
            // Refusals of another workspace's key name no workspace: root sees them wherever it acts.
            expect(txids).toEqual(expect.arrayContaining(['x-A', 'x-B', 'xl-A', 'xl-B']));
          });
        }
        const dual = await createUserWithPermissions(app, rootToken, ['/tracker/reports/get'], {
          workspaces: [workspace.A.id, workspace.B.id],
        });
        for (const [acting, label] of [
          [undefined, 'no header: their first, A'],
          [workspace.A.id, 'X-Workspace A'],
          [workspace.B.id, 'X-Workspace B'],
        ] as const) {
          await check('GET /api/reports', `a member of both, ${label}: that workspace only`, async () => {
            const response = await send(dual.token, 'GET', '/api/reports?group_by=campaign&limit=0', {
              ...(acting === undefined ? {} : { acting }),
            });
            const side: Side = acting === workspace.B.id ? 'B' : 'A';
            const campaigns = listJson(response, 'reports').list.map((row) => row.campaign);
            expect(campaigns).toContain(traffic[side].campaign.external_id);
            expect(campaigns).not.toContain(traffic[OTHER[side]].campaign.external_id);
          });
        }
        await check('GET /api/reports', 'root without the header: A', async () => {
          const { list } = listJson(
            await send(rootToken, 'GET', '/api/reports?group_by=campaign&limit=0'),
            'reports as root',
          );
          expect(list.map((row) => row.campaign)).not.toContain(traffic.B.campaign.external_id);
        });
        for (const route of ['/api/reports?group_by=campaign', '/api/postback-log', '/api/outbound-postbacks']) {
          await check(`GET ${route.split('?')[0]}`, "A's member naming B in X-Workspace: 403", async () => {
            expectStatus(await send(member.A.token, 'GET', route, { acting: workspace.B.id }), 403, route);
          });
        }
        await check('POST /api/conversions/import', "A's member naming B in X-Workspace: 403", async () => {
          const response = await send(member.A.token, 'POST', '/api/conversions/import', {
            acting: workspace.B.id,
            payload: { text: `${traffic.B.clicks.at(-2)},approved,7,imp-hdr` },
          });
          expectStatus(response, 403, 'import');
        });
      });
    });
  });
});
