import type { ConditionNode } from '@switchyard/domain';
import { describe, expect, it } from 'vitest';
import { type CapCounters, dayIn, InProcessCapCounters } from '../src/traffic/rules/caps.js';
import { type ConfigRow, compileRouting } from '../src/traffic/rules/compile.js';
import { decide, type RoutingSubject } from '../src/traffic/rules/routing.js';
import type { RoutingSnapshot } from '../src/traffic/rules/snapshot.js';
import { pickWeighted, seededRandom } from '../src/traffic/rules/weighted.js';

// Routing decisions: each condition type, weights over many draws, caps at the
// boundary, backup chains, time of day across timezones and DST. Config goes through the real compiler.

type Body = Record<string, unknown>;
const URL_OF = (id: string) => `https://${id}.example/?c={clickid}`;

function row(kind: string, externalId: string, body: Body, status = 'active'): ConfigRow {
  return { kind, external_id: externalId, name: `${kind} ${externalId}`, body: JSON.stringify(body), status };
}

const tree = (node: ConditionNode) => JSON.stringify(node);
const leaf = {
  in: (Var: string, Values: string[], Operation: 'IN' | 'NOT IN' = 'IN'): ConditionNode => ({
    type: 'InCondition',
    data: { Var, Operation, Values },
  }),
  equal: (Var: string, Value: string): ConditionNode => ({ type: 'EqualCondition', data: { Var, Value } }),
  segment: (Values: string[], Operation: 'IN' | 'NOT IN' = 'IN'): ConditionNode => ({
    type: 'SegmentCondition',
    data: { Var: 'segmentId', Value: { Operation, Values } },
  }),
  vars: (
    key: string,
    Operation: 'IN' | 'NOT IN' | 'contains' | 'starts with' | 'ends with',
    Value: string[],
  ): ConditionNode => ({
    type: 'VarsCondition',
    data: { Var: 'vars', Value: { Var: key, Operation, Value } },
  }),
  between: (Start: string, End: string, Timezone: string): ConditionNode => ({
    type: 'BetweenCondition',
    data: { Var: 'timeOfDay', Values: { Start, End, Timezone } },
  }),
  compare: (Var: string, Comparator: '>' | '>=' | '<' | '<=' | '==' | '!=', Value: number): ConditionNode => ({
    type: 'CompareIntCondition',
    data: { Var, Values: { Value, Comparator } },
  }),
};

interface Setup {
  groups: Body[];
  offers?: Record<string, Body>;
  landers?: Record<string, Body>;
  segments?: Record<string, ConditionNode>;
  side?: 'tracker' | 'api';
}

/** A snapshot with campaign `camp` on flow `flow`, compiled from stored-shape rows. */
function snapshotOf(setup: Setup): RoutingSnapshot {
  const side = setup.side ?? 'tracker';
  const kinds =
    side === 'tracker'
      ? { campaign: 'tracker-campaigns', flow: 'tracker-flows', offer: 'tracker-offers', segment: 'tracker-segments' }
      : { campaign: 'campaigns', flow: 'flows', offer: 'offers', segment: 'segments' };
  const rows: ConfigRow[] = [
    row('traffic-sources', 'ts', {}),
    row(kinds.campaign, 'camp', { traffic_source_external_id: 'ts', flow_external_id: 'flow' }),
    row(kinds.flow, 'flow', { path_groups: setup.groups }),
  ];
  for (const [id, body] of Object.entries(setup.offers ?? {})) {
    const { status, ...rest } = body;
    rows.push(row(kinds.offer, id, { url: URL_OF(id), ...rest }, (status as string) ?? 'active'));
  }
  for (const [id, body] of Object.entries(setup.landers ?? {}))
    rows.push(row('tracker-landers', id, { url: URL_OF(id), ...body }));
  for (const [id, condition] of Object.entries(setup.segments ?? {}))
    rows.push(row(kinds.segment, id, { condition: tree(condition) }));
  const snapshot = compileRouting(rows);
  expect([...snapshot.problems]).toEqual([]);
  return snapshot;
}

/** A flow whose first group (id `hit`) has `condition`; a catch-all group `miss` follows. */
function conditionFlow(condition: ConditionNode, extra: Partial<Setup> = {}): RoutingSnapshot {
  return snapshotOf({
    groups: [
      { id: 'hit', condition: tree(condition), paths: [{ id: 'p1', offers: [{ id: 'r1', offer_external_id: 'A' }] }] },
      { id: 'miss', paths: [{ id: 'p2', offers: [{ id: 'r2', offer_external_id: 'B' }] }] },
    ],
    offers: { A: {}, B: {} },
    ...extra,
  });
}

const NOW = new Date('2024-06-03T12:00:00Z');

function subject(fields: RoutingSubject['fields'] = {}, vars: RoutingSubject['vars'] = {}, now = NOW): RoutingSubject {
  return { fields, vars, now };
}

async function route(
  snapshot: RoutingSnapshot,
  input: RoutingSubject = subject(),
  options: { caps?: CapCounters; random?: () => number; lead?: boolean } = {},
) {
  const side = snapshot.tracker.campaigns.get('camp') ? 'tracker' : 'api';
  const campaign = snapshot[side].campaigns.get('camp')!;
  return decide(
    snapshot,
    campaign,
    input,
    { caps: options.caps ?? new InProcessCapCounters(), random: options.random ?? seededRandom(1) },
    options.lead ?? false,
  );
}

describe('each condition type, through the engine', () => {
  const cases: { name: string; condition: ConditionNode; input: RoutingSubject; hit: boolean }[] = [
    {
      name: 'country IN',
      condition: leaf.in('countryCode', ['GB', 'DE']),
      input: subject({ countryCode: 'DE' }),
      hit: true,
    },
    {
      name: 'country IN, other',
      condition: leaf.in('countryCode', ['GB']),
      input: subject({ countryCode: 'US' }),
      hit: false,
    },
    { name: 'country IN, unknown', condition: leaf.in('countryCode', ['GB']), input: subject({}), hit: false },
    {
      name: 'country NOT IN',
      condition: leaf.in('countryCode', ['GB'], 'NOT IN'),
      input: subject({ countryCode: 'US' }),
      hit: true,
    },
    {
      name: 'device IN',
      condition: leaf.in('device', ['mobile', 'tablet']),
      input: subject({ device: 'tablet' }),
      hit: true,
    },
    {
      name: 'device NOT IN',
      condition: leaf.in('device', ['desktop'], 'NOT IN'),
      input: subject({ device: 'desktop' }),
      hit: false,
    },
    { name: 'platform IN', condition: leaf.in('platform', ['ios']), input: subject({ platform: 'ios' }), hit: true },
    {
      name: 'browser IN (any case)',
      condition: leaf.in('browser', ['Mobile Safari']),
      input: subject({ browser: 'mobile safari' }),
      hit: true,
    },
    {
      name: 'campaignId equal',
      condition: leaf.equal('campaignId', 'camp'),
      input: subject({ campaignId: 'camp' }),
      hit: true,
    },
    {
      name: 'campaignId other',
      condition: leaf.equal('campaignId', 'other'),
      input: subject({ campaignId: 'camp' }),
      hit: false,
    },
    { name: 'segment IN', condition: leaf.segment(['seg-gb']), input: subject({ countryCode: 'GB' }), hit: true },
    {
      name: 'segment IN, outside',
      condition: leaf.segment(['seg-gb']),
      input: subject({ countryCode: 'FR' }),
      hit: false,
    },
    {
      name: 'segment NOT IN',
      condition: leaf.segment(['seg-gb'], 'NOT IN'),
      input: subject({ countryCode: 'FR' }),
      hit: true,
    },
    {
      name: 'segment through a segment',
      condition: leaf.segment(['seg-uk-mobile']),
      input: subject({ countryCode: 'GB', device: 'mobile' }),
      hit: true,
    },
    {
      name: 'segment through a segment, outside',
      condition: leaf.segment(['seg-uk-mobile']),
      input: subject({ countryCode: 'GB', device: 'desktop' }),
      hit: false,
    },
    { name: 'unknown segment', condition: leaf.segment(['nope']), input: subject({}), hit: false },
    { name: 'vars IN', condition: leaf.vars('var1', 'IN', ['a', 'b']), input: subject({}, { var1: 'B' }), hit: true },
    { name: 'vars NOT IN, absent', condition: leaf.vars('var1', 'NOT IN', ['a']), input: subject({}, {}), hit: true },
    {
      name: 'vars contains',
      condition: leaf.vars('utm_source', 'contains', ['mail']),
      input: subject({}, { utm_source: 'newsletter-mail-1' }),
      hit: true,
    },
    {
      name: 'vars starts with',
      condition: leaf.vars('subaff', 'starts with', ['x']),
      input: subject({}, { subaff: 'yx' }),
      hit: false,
    },
    {
      name: 'vars ends with',
      condition: leaf.vars('var10', 'ends with', ['.io']),
      input: subject({}, { var10: 'site.io' }),
      hit: true,
    },
    { name: 'time of day inside', condition: leaf.between('11:00', '13:00', 'UTC'), input: subject(), hit: true },
    { name: 'time of day outside', condition: leaf.between('13:00', '14:00', 'UTC'), input: subject(), hit: false },
    { name: 'regsCount <', condition: leaf.compare('regsCount', '<', 3), input: subject({ regsCount: 2 }), hit: true },
    {
      name: 'regsCount < at the bound',
      condition: leaf.compare('regsCount', '<', 3),
      input: subject({ regsCount: 3 }),
      hit: false,
    },
    {
      name: 'payoutsCount ==',
      condition: leaf.compare('payoutsCount', '==', 0),
      input: subject({ payoutsCount: 0 }),
      hit: true,
    },
    {
      name: 'emailRate >=',
      condition: leaf.compare('emailRate', '>=', 50),
      input: subject({ emailRate: 100 }),
      hit: true,
    },
    { name: 'age >= at the bound', condition: leaf.compare('age', '>=', 18), input: subject({ age: 18 }), hit: true },
    { name: 'age without an age', condition: leaf.compare('age', '>=', 18), input: subject({}), hit: false },
    { name: 'age !=', condition: leaf.compare('age', '!=', 18), input: subject({ age: 18 }), hit: false },
    {
      name: 'AND of country and device',
      condition: {
        type: 'AndCondition',
        data: { Conditions: [leaf.in('countryCode', ['GB']), leaf.in('device', ['mobile'])] },
      },
      input: subject({ countryCode: 'GB', device: 'desktop' }),
      hit: false,
    },
    {
      name: 'OR of country and device',
      condition: {
        type: 'OrCondition',
        data: { Conditions: [leaf.in('countryCode', ['GB']), leaf.in('device', ['mobile'])] },
      },
      input: subject({ countryCode: 'FR', device: 'mobile' }),
      hit: true,
    },
    {
      name: 'NOT',
      condition: { type: 'NotCondition', data: { Condition: leaf.in('countryCode', ['GB']) } },
      input: subject({ countryCode: 'GB' }),
      hit: false,
    },
  ];
  const segments = {
    'seg-gb': leaf.in('countryCode', ['GB']),
    'seg-uk-mobile': {
      type: 'AndCondition',
      data: { Conditions: [leaf.segment(['seg-gb']), leaf.in('device', ['mobile'])] },
    } as ConditionNode,
  };

  it.each(cases)('$name', async ({ condition, input, hit }) => {
    for (const side of ['tracker', 'api'] as const) {
      const snapshot =
        side === 'tracker'
          ? conditionFlow(condition, { segments })
          : snapshotOf({
              side,
              groups: [
                { id: 'hit', condition: tree(condition), paths: [{ id: 'p1', offer_external_id: 'A' }] },
                { id: 'miss', paths: [{ id: 'p2', offer_external_id: 'B' }] },
              ],
              offers: { A: {}, B: {} },
              segments,
            });
      const decision = await route(snapshot, input);
      expect(decision.group?.id, side).toBe(hit ? 'hit' : 'miss');
      expect(decision.offer?.externalId, side).toBe(hit ? 'A' : 'B');
    }
  });

  it('takes the first matching group by priority, skipping disabled groups and paths', async () => {
    const snapshot = snapshotOf({
      groups: [
        { id: 'off', enabled: false, paths: [{ id: 'p0', offers: [{ id: 'r', offer_external_id: 'A' }] }] },
        {
          id: 'first',
          paths: [
            { id: 'p1', enabled: false, offers: [{ id: 'r', offer_external_id: 'A' }] },
            { id: 'p2', offers: [{ id: 'r', offer_external_id: 'B' }] },
          ],
        },
        { id: 'second', paths: [{ id: 'p3', offers: [{ id: 'r', offer_external_id: 'A' }] }] },
      ],
      offers: { A: {}, B: {} },
    });
    for (let draw = 0; draw < 50; draw += 1) {
      const decision = await route(snapshot, subject(), { random: seededRandom(draw) });
      expect([decision.group?.id, decision.path?.id, decision.offer?.externalId]).toEqual(['first', 'p2', 'B']);
    }
  });

  it('says when no group matches', async () => {
    const snapshot = snapshotOf({
      groups: [
        {
          id: 'gb',
          condition: tree(leaf.in('countryCode', ['GB'])),
          paths: [{ id: 'p', offers: [{ id: 'r', offer_external_id: 'A' }] }],
        },
      ],
      offers: { A: {} },
    });
    const decision = await route(snapshot, subject({ countryCode: 'US' }));
    expect(decision).toMatchObject({ group: null, offer: null, reason: 'no_matching_path_group' });
  });
});

describe('time of day across timezones and DST', () => {
  const cases: { at: string; zone: string; window: [string, string]; hit: boolean }[] = [
    // New York office hours: 09:30 local is 14:30Z in winter (EST) and 13:30Z in summer (EDT).
    { at: '2024-01-15T14:30:00Z', zone: 'America/New_York', window: ['09:00', '17:00'], hit: true },
    { at: '2024-01-15T13:30:00Z', zone: 'America/New_York', window: ['09:00', '17:00'], hit: false },
    { at: '2024-07-15T13:30:00Z', zone: 'America/New_York', window: ['09:00', '17:00'], hit: true },
    { at: '2024-07-15T21:30:00Z', zone: 'America/New_York', window: ['09:00', '17:00'], hit: false },
    // The morning clocks go forward (10 March 2024): 03:30 EDT exists, 02:30 does not.
    { at: '2024-03-10T07:30:00Z', zone: 'America/New_York', window: ['03:00', '04:00'], hit: true },
    { at: '2024-03-10T06:59:00Z', zone: 'America/New_York', window: ['01:00', '02:00'], hit: true },
    // The night clocks go back in London (27 October 2024): 01:30 happens twice, both inside.
    { at: '2024-10-27T00:30:00Z', zone: 'Europe/London', window: ['01:00', '02:00'], hit: true },
    { at: '2024-10-27T01:30:00Z', zone: 'Europe/London', window: ['01:00', '02:00'], hit: true },
    // A window past midnight wraps; Tokyo (UTC+9) and Kolkata (UTC+5:30, so 03:30Z is 09:00) have no DST.
    { at: '2024-06-03T14:00:00Z', zone: 'Asia/Tokyo', window: ['22:00', '06:00'], hit: true },
    { at: '2024-06-03T03:00:00Z', zone: 'Asia/Tokyo', window: ['22:00', '06:00'], hit: false },
    { at: '2024-06-03T03:29:00Z', zone: 'Asia/Kolkata', window: ['09:00', '10:00'], hit: false },
    { at: '2024-06-03T03:31:00Z', zone: 'Asia/Kolkata', window: ['09:00', '10:00'], hit: true },
    // End is exclusive.
    { at: '2024-06-03T17:00:00Z', zone: 'UTC', window: ['09:00', '17:00'], hit: false },
  ];

  it.each(cases)('$at in $zone, $window', async ({ at, zone, window, hit }) => {
    const snapshot = conditionFlow(leaf.between(window[0], window[1], zone));
    const decision = await route(snapshot, subject({}, {}, new Date(at)));
    expect(decision.group?.id).toBe(hit ? 'hit' : 'miss');
  });

  it('counts cap days in the offer timezone, DST included', () => {
    expect(dayIn(new Date('2024-03-10T04:59:00Z'), 'America/New_York')).toBe('2024-03-09');
    expect(dayIn(new Date('2024-03-10T05:00:00Z'), 'America/New_York')).toBe('2024-03-10');
    // After the change to EDT the day starts at 04:00Z.
    expect(dayIn(new Date('2024-03-11T03:59:00Z'), 'America/New_York')).toBe('2024-03-10');
    expect(dayIn(new Date('2024-03-11T04:00:00Z'), 'America/New_York')).toBe('2024-03-11');
    expect(dayIn(new Date('2024-06-03T15:00:00Z'), 'Asia/Tokyo')).toBe('2024-06-04');
    expect(dayIn(new Date('2024-06-03T15:00:00Z'), '')).toBe('2024-06-03');
    expect(dayIn(new Date('2024-06-03T15:00:00Z'), 'Not/AZone')).toBe('2024-06-03');
  });
});

describe('weights', () => {
  const DRAWS = 20_000;
  const TOLERANCE = 0.015;

  function shares(ids: (string | undefined)[]): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const id of ids) counts[String(id)] = (counts[String(id)] ?? 0) + 1;
    return Object.fromEntries(Object.entries(counts).map(([id, count]) => [id, count / ids.length]));
  }

  it('picks paths, landers and offers in proportion to weight, never a zero or disabled one', async () => {
    const snapshot = snapshotOf({
      groups: [
        {
          id: 'g',
          paths: [
            {
              id: 'p1',
              weight: 10,
              offers: [
                { id: 'a', offer_external_id: 'A', weight: 1 },
                { id: 'b', offer_external_id: 'B', weight: 3 },
                { id: 'c', offer_external_id: 'C', weight: 0 },
                { id: 'd', offer_external_id: 'D', weight: 50, enabled: false },
              ],
              landers: [
                { id: 'l1', lander_external_id: 'L1', weight: 70 },
                { id: 'l2', lander_external_id: 'L2', weight: 30 },
                { id: 'l3', lander_external_id: 'L3', weight: 100 },
              ],
            },
            { id: 'p2', weight: 30, offers: [{ id: 'a', offer_external_id: 'A' }] },
            { id: 'p3', weight: 60, offers: [{ id: 'a', offer_external_id: 'A' }] },
            { id: 'p4', weight: 0, offers: [{ id: 'a', offer_external_id: 'A' }] },
          ],
        },
      ],
      offers: { A: {}, B: {}, C: {}, D: {} },
      // L3 is disabled as a lander: rows naming it never send traffic there.
      landers: { L1: {}, L2: {}, L3: { enabled: false } },
    });
    const random = seededRandom(42);
    const decisions = [];
    for (let draw = 0; draw < DRAWS; draw += 1) decisions.push(await route(snapshot, subject(), { random }));
    const paths = shares(decisions.map((decision) => decision.path?.id));
    expect(paths.p1).toBeCloseTo(0.1, 1);
    expect(Math.abs(paths.p1! - 0.1)).toBeLessThan(TOLERANCE);
    expect(Math.abs(paths.p2! - 0.3)).toBeLessThan(TOLERANCE);
    expect(Math.abs(paths.p3! - 0.6)).toBeLessThan(TOLERANCE);
    expect(paths.p4).toBeUndefined();
    const inP1 = decisions.filter((decision) => decision.path?.id === 'p1');
    const offers = shares(inP1.map((decision) => decision.offer?.externalId));
    expect(Math.abs(offers.A! - 0.25)).toBeLessThan(0.03);
    expect(Math.abs(offers.B! - 0.75)).toBeLessThan(0.03);
    expect(Object.keys(offers).sort()).toEqual(['A', 'B']);
    const landers = shares(inP1.map((decision) => decision.lander?.externalId));
    expect(Math.abs(landers.L1! - 0.7)).toBeLessThan(0.03);
    expect(Object.keys(landers).sort()).toEqual(['L1', 'L2']);
  });

  it('pickWeighted: bounds of the random number, and nothing to pick', () => {
    const rows = [{ weight: 0 }, { weight: 2 }, { weight: 1 }];
    expect(pickWeighted(rows, () => 0)).toBe(rows[1]);
    expect(pickWeighted(rows, () => 0.6666)).toBe(rows[1]);
    expect(pickWeighted(rows, () => 0.6667)).toBe(rows[2]);
    expect(pickWeighted(rows, () => 0.9999999)).toBe(rows[2]);
    expect(pickWeighted([{ weight: 0 }], () => 0.5)).toBeUndefined();
    expect(pickWeighted([], () => 0.5)).toBeUndefined();
  });
});

describe('caps and backup chains', () => {
  it('sends an offer exactly its daily cap, then its backup', async () => {
    const snapshot = snapshotOf({
      groups: [{ id: 'g', paths: [{ id: 'p', offers: [{ id: 'r', offer_external_id: 'A' }] }] }],
      offers: { A: { daily_cap: 3, backup_offer_external_id: 'B' }, B: {} },
    });
    const caps = new InProcessCapCounters();
    const sent = [];
    for (let click = 0; click < 5; click += 1) sent.push(await route(snapshot, subject(), { caps }));
    expect(sent.map((decision) => decision.offer?.externalId)).toEqual(['A', 'A', 'A', 'B', 'B']);
    expect(sent.map((decision) => decision.reason)).toEqual([
      'matched',
      'matched',
      'matched',
      'backup_offer',
      'backup_offer',
    ]);
  });

  it('never exceeds a cap under concurrent decisions', async () => {
    const snapshot = snapshotOf({
      groups: [{ id: 'g', paths: [{ id: 'p', offers: [{ id: 'r', offer_external_id: 'A' }] }] }],
      offers: { A: { daily_cap: 10, backup_offer_external_id: 'B' }, B: {} },
    });
    const caps = new InProcessCapCounters();
    const decisions = await Promise.all(Array.from({ length: 200 }, () => route(snapshot, subject(), { caps })));
    expect(decisions.filter((decision) => decision.offer?.externalId === 'A')).toHaveLength(10);
  });

  it('follows the chain past capped, disabled and archived offers, and stops at a loop', async () => {
    const snapshot = snapshotOf({
      side: 'api',
      groups: [{ id: 'g', paths: [{ id: 'p', offer_external_id: 'A' }] }],
      offers: {
        A: { daily_cap: 1, backup_offer_external_id: 'B' },
        B: { enabled: false, backup_offer_external_id: 'C' },
        C: { status: 'archived', backup_offer_external_id: 'D' },
        D: { daily_cap: 1, backup_offer_external_id: 'A' },
      },
    });
    const caps = new InProcessCapCounters();
    const sent = [];
    for (let lead = 0; lead < 3; lead += 1) sent.push(await route(snapshot, subject(), { caps, lead: true }));
    expect(sent.map((decision) => decision.offer?.externalId ?? null)).toEqual(['A', 'D', null]);
    expect(sent.map((decision) => decision.reason)).toEqual(['matched', 'backup_offer', 'capped']);
  });

  it('counts an offer cap per day in its timezone', async () => {
    const snapshot = snapshotOf({
      groups: [{ id: 'g', paths: [{ id: 'p', offers: [{ id: 'r', offer_external_id: 'A' }] }] }],
      offers: { A: { daily_cap: 1, cap_timezone: 'Asia/Tokyo' } },
    });
    const caps = new InProcessCapCounters();
    const at = async (iso: string) =>
      (await route(snapshot, subject({}, {}, new Date(iso)), { caps })).offer?.externalId;
    expect(await at('2024-06-03T14:58:00Z')).toBe('A'); // 23:58 in Tokyo
    expect(await at('2024-06-03T14:59:00Z')).toBeUndefined(); // same Tokyo day: capped
    expect(await at('2024-06-03T15:00:00Z')).toBe('A'); // 00:00 the next Tokyo day, still 3 June in UTC
  });

  it("holds a path to its Regs Daily Cap for leads, then uses the group's other path and then the next group", async () => {
    const snapshot = snapshotOf({
      side: 'api',
      groups: [
        {
          id: 'g1',
          paths: [
            { id: 'capped', weight: 1_000_000, daily_cap: 2, offer_external_id: 'A' },
            { id: 'small', weight: 1, daily_cap: 1, offer_external_id: 'B' },
          ],
        },
        { id: 'g2', paths: [{ id: 'rest', offer_external_id: 'C' }] },
      ],
      offers: { A: {}, B: {}, C: {} },
    });
    const caps = new InProcessCapCounters();
    const paths = [];
    for (let lead = 0; lead < 5; lead += 1)
      paths.push((await route(snapshot, subject(), { caps, lead: true })).path?.id);
    expect(paths).toEqual(['capped', 'capped', 'small', 'rest', 'rest']);
  });

  it("does not count clicks against a path's Regs Daily Cap", async () => {
    const snapshot = snapshotOf({
      groups: [{ id: 'g', paths: [{ id: 'p', daily_cap: 1, offers: [{ id: 'r', offer_external_id: 'A' }] }] }],
      offers: { A: {} },
    });
    const caps = new InProcessCapCounters();
    for (let click = 0; click < 3; click += 1)
      expect((await route(snapshot, subject(), { caps })).offer?.externalId).toBe('A');
  });

  it("gives back a path's count when none of its offers can take the lead", async () => {
    const snapshot = snapshotOf({
      side: 'api',
      groups: [{ id: 'g', paths: [{ id: 'p', daily_cap: 5, offer_external_id: 'A' }] }],
      offers: { A: { daily_cap: 1 } },
    });
    const caps = new InProcessCapCounters();
    await route(snapshot, subject(), { caps, lead: true });
    await route(snapshot, subject(), { caps, lead: true });
    expect(await caps.count('path-regs:flow:p', '2024-06-03')).toBe(1);
  });

  it("tries the path's other offer rows when one chain is exhausted", async () => {
    const snapshot = snapshotOf({
      groups: [
        {
          id: 'g',
          paths: [
            {
              id: 'p',
              offers: [
                { id: 'a', offer_external_id: 'A', weight: 1_000_000 },
                { id: 'b', offer_external_id: 'B', weight: 1 },
              ],
            },
          ],
        },
      ],
      offers: { A: { daily_cap: 1 }, B: {} },
    });
    const caps = new InProcessCapCounters();
    const sent = [];
    for (let click = 0; click < 3; click += 1)
      sent.push((await route(snapshot, subject(), { caps })).offer?.externalId);
    expect(sent).toEqual(['A', 'B', 'B']);
  });

  it('InProcessCapCounters: the limit is inclusive, release gives one back, a new day starts at zero', async () => {
    const caps = new InProcessCapCounters();
    expect(await caps.tryTake('k', '2024-06-03', 2)).toBe(true);
    expect(await caps.tryTake('k', '2024-06-03', 2)).toBe(true);
    expect(await caps.tryTake('k', '2024-06-03', 2)).toBe(false);
    await caps.release('k', '2024-06-03');
    expect(await caps.tryTake('k', '2024-06-03', 2)).toBe(true);
    expect(await caps.tryTake('k', '2024-06-04', 2)).toBe(true);
    expect(await caps.count('k', '2024-06-04')).toBe(1);
    // A decision still on yesterday (it began before midnight) cannot use yesterday's count again.
    expect(await caps.tryTake('k', '2024-06-03', 2)).toBe(false);
    await caps.add('k', '2024-06-04', 1);
    expect(await caps.tryTake('k', '2024-06-04', 2)).toBe(false);
  });
});
