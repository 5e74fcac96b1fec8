import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, GB_IP } from './fixtures/traffic.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// API clients need not invent row ids. A path group, path, offer or lander row, payout rule
// set or rule sent without `id` gets one from the server; two rows of one kind with the same id in one
// record are refused with 400 on the second one's id (they used to share a cap counter and merge in
// reports). On SQLite and PostgreSQL.

const DUPLICATE = 'Another row of this record has this id';

forEachDatabase('row ids', (db) => {
  let app: FastifyInstance;
  let token: string;
  let offer: StoredRecord;
  let lander: StoredRecord;
  let source: StoredRecord;

  beforeAll(async () => {
    app = await db.buildApp({
      env: { SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL, SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    lander = await createRecord(app, token, 'tracker-landers', { url: 'https://lander.example/?c={clickid}' });
    source = await createRecord(app, token, 'traffic-sources');
  });

  const post = (apiPath: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/${apiPath}`, headers: bearer(token), payload });

  it('gives every row of a flow sent without ids an id of its own, and routes by it', async () => {
    const response = await post('tracker/flows', {
      name: 'No ids',
      path_groups: [
        {
          name: 'Everyone',
          paths: [
            {
              name: 'A',
              offers: [{ offer_external_id: offer.external_id }],
              landers: [{ lander_external_id: lander.external_id }],
            },
            { name: 'B', weight: 0, offers: [{ offer_external_id: offer.external_id }] },
          ],
        },
        { name: 'Spare', paths: [{ offers: [{ offer_external_id: offer.external_id }] }] },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const flow = response.json<{
      external_id: string;
      path_groups: { id: string; paths: { id: string; offers: { id: string }[]; landers: { id: string }[] }[] }[];
    }>();
    const ids = flow.path_groups.flatMap((group) => [
      group.id,
      ...group.paths.flatMap((path) => [
        path.id,
        ...path.offers.map((row) => row.id),
        ...path.landers.map((row) => row.id),
      ]),
    ]);
    expect(ids).toHaveLength(9);
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{16}$/);
    expect(new Set(ids).size).toBe(9);

    // Read back, the ids stay as given.
    const read = await app.inject({
      method: 'GET',
      url: `/api/tracker/flows/${flow.external_id}`,
      headers: bearer(token),
    });
    expect(read.json().path_groups).toEqual(flow.path_groups);

    const campaign = await createRecord(app, token, 'tracker-campaigns', {
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    });
    const click = await app.inject({
      method: 'GET',
      url: `/c/${campaign.external_id}`,
      remoteAddress: GB_IP,
      headers: { 'user-agent': DESKTOP },
    });
    expect(click.statusCode).toBe(302);
    await app.engine.flush();
    const row = await app.store.db
      .selectFrom('tracker_clicks')
      .select(['path_group_id', 'path_id'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ path_group_id: flow.path_groups[0]!.id, path_id: flow.path_groups[0]!.paths[0]!.id });
  });

  it('refuses two rows of one kind with one id, on the second one', async () => {
    const offerRow = (id: string) => ({ id, offer_external_id: offer.external_id });
    const paths = await post('tracker/flows', {
      name: 'Twice',
      path_groups: [
        { id: 'g1', paths: [{ id: 'p1', offers: [offerRow('o1')] }] },
        {
          id: 'g2',
          paths: [
            { id: 'p2', offers: [offerRow('o2')] },
            { id: 'p1', offers: [offerRow('o1')] },
          ],
        },
      ],
    });
    expect(expectError(paths, 400).errors).toEqual({
      'path_groups.1.paths.1.id': [DUPLICATE],
      'path_groups.1.paths.1.offers.0.id': [DUPLICATE],
    });
    const groups = await post('flows', {
      name: 'Groups twice',
      path_groups: [
        { id: 'same', paths: [{ offer_external_id: (await createRecord(app, token, 'offers')).external_id }] },
        { id: 'same', paths: [] },
      ],
    });
    expect(expectError(groups, 400).errors).toEqual({ 'path_groups.1.id': [DUPLICATE] });
    // Ids alike across kinds are fine: a path group and a path may share one.
    const mixed = await post('tracker/flows', {
      name: 'Kinds alike',
      path_groups: [{ id: 'x', paths: [{ id: 'x', offers: [offerRow('x')] }] }],
    });
    expect(mixed.statusCode, mixed.body).toBe(201);
  });

  it('gives payout rule sets and rules ids, and refuses a rule id used twice', async () => {
    const event = await createRecord(app, token, 'postback-events');
    const flow = await createRecord(app, token, 'tracker-flows');
    const base = {
      name: 'Rules',
      traffic_source_external_id: source.external_id,
      flow_external_id: flow.external_id,
    };
    const made = await post('tracker/campaigns', {
      ...base,
      payout_rule_sets: [{ postback_event_external_id: event.external_id, rules: [{ payout: 2 }, { payout: 3 }] }],
    });
    expect(made.statusCode, made.body).toBe(201);
    const [set] = made.json<{ payout_rule_sets: { id: string; rules: { id: string }[] }[] }>().payout_rule_sets;
    expect(set?.id).toMatch(/^[0-9a-z]{16}$/);
    expect(set?.rules.map((rule) => rule.id)).toEqual([
      expect.stringMatching(/^[0-9a-z]{16}$/),
      expect.stringMatching(/^[0-9a-z]{16}$/),
    ]);
    expect(set?.rules[0]?.id).not.toBe(set?.rules[1]?.id);

    const twice = await post('tracker/campaigns', {
      ...base,
      payout_rule_sets: [
        {
          id: 's',
          postback_event_external_id: event.external_id,
          rules: [
            { id: 'r', payout: 2 },
            { id: 'r', payout: 3 },
          ],
        },
      ],
    });
    expect(expectError(twice, 400).errors).toEqual({ 'payout_rule_sets.0.rules.1.id': [DUPLICATE] });
  });
});
