// The ClickHouse columnar store against a real server, every plan's rows compared figure for
// figure with the reference evaluator (fixtures/columnar-reference.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClickHouseStore } from '../src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import {
  COLUMNS,
  createTable,
  DERIVED_COLUMNS,
  LP_COLUMN,
  literal,
  storedRow,
} from '../src/columnar/clickhouse-sql.js';
import type { ColumnarRow } from '../src/columnar/schema.js';
import {
  type AggregatePlan,
  type AggregateRow,
  type PlanCondition,
  type Source,
  shownAs,
} from '../src/report-plan/plan.js';
import { BASE_URL, onClickHouse, runUrl } from './clickhouse-support.js';
import { aggregateReference } from './fixtures/columnar-reference.js';
import { generateRows, HOSTILE_VALUES } from './fixtures/columnar-rows.js';

async function openStore(suffix: string): Promise<ClickHouseStore> {
  return new ClickHouseStore(runUrl(suffix)).open();
}

async function dropStore(store: ClickHouseStore): Promise<void> {
  await store.client.execute(`DROP DATABASE IF EXISTS ${store.client.target.database}`, { inDatabase: false });
}

// Plans, as service.ts builds them.
const value = (name: string) => ({ column: { name, origin: false }, as: shownAs(name) });
const group = (alias: string, name: string) => ({ alias: `g_${alias}`, value: value(name) });
const equals = (name: string, to: string | null): PlanCondition => ({ kind: 'equals', value: value(name), to });
// The generated rows are in workspaces 1 and 2 (fixtures/columnar-rows.ts).
const workspace = (id: number): PlanCondition => ({ kind: 'workspace', workspace: id });
const range = (from: string, to: string): PlanCondition[] => [
  { kind: 'time', op: '>=', at: from },
  { kind: 'time', op: '<', at: to },
];
function plan(
  source: Exclude<Source, 'conversions'>,
  groups: AggregatePlan['groups'],
  where: PlanCondition[] = [],
  grain: 'day' | 'hour' | 'quarter' | null = null,
): AggregatePlan {
  return {
    source,
    time: 'created_at',
    groups,
    buckets: grain
      ? { grain, timezone: grain === 'quarter' ? 'Asia/Kolkata' : 'Europe/Berlin', byHour: grain !== 'day' }
      : null,
    where,
    includeBots: true,
  };
}

const generated = generateRows({ clicks: 3000, leads: 800 });
// A click whose time has milliseconds: a range starting or ending exactly there must split at it.
const splitAt = generated.clicks.find((row) => !row.created_at.endsWith('.000Z'))?.created_at ?? '';

const PLANS: [string, AggregatePlan][] = [
  ['clicks, no groups', plan('clicks', [])],
  ['leads, no groups', plan('leads', [])],
  ['no row kept, no groups', plan('clicks', [], [workspace(3)])],
  ['by campaign', plan('clicks', [group('campaign', 'campaign_external_id')])],
  // Human clicks only.
  ['by campaign, bots out', { ...plan('clicks', [group('campaign', 'campaign_external_id')]), includeBots: false }],
  [
    'campaign × offer × country × day, in a range',
    plan(
      'clicks',
      [group('campaign', 'campaign_external_id'), group('offer', 'offer_external_id'), group('country', 'country')],
      range('2026-03-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z'),
      'day',
    ),
  ],
  ['by var1, nulls included', plan('clicks', [group('var1', 'var1')])],
  ['by subaff in one country', plan('clicks', [group('subaff', 'subaff')], [equals('country', 'US')])],
  [
    'var1 × country of one workspace',
    plan('clicks', [group('var1', 'var1'), group('country', 'country')], [workspace(1)]),
  ],
  [
    'one workspace, by campaign and var1',
    plan('clicks', [group('campaign', 'campaign_external_id'), group('var1', 'var1')], [workspace(2)]),
  ],
  [
    'one campaign of one workspace, by var1',
    plan('leads', [group('var1', 'var1')], [workspace(1), equals('campaign_external_id', 'c2')]),
  ],
  // A campaign filter (service.ts: filters.campaign): one campaign, no campaign, empty text.
  ['one campaign, by var1', plan('clicks', [group('var1', 'var1')], [equals('campaign_external_id', 'c3')])],
  ['no campaign, by country', plan('clicks', [group('country', 'country')], [equals('campaign_external_id', null)])],
  ['a campaign of empty text', plan('leads', [group('country', 'country')], [equals('campaign_external_id', '')])],
  ['bot × asn', plan('clicks', [group('bot', 'is_bot'), group('asn', 'asn')])],
  ['bots only, by asn', plan('clicks', [group('asn', 'asn')], [equals('is_bot', 'true')])],
  [
    'humans of one asn',
    plan('leads', [group('country', 'country')], [equals('is_bot', 'false'), equals('asn', '15169')]),
  ],
  [
    'no asn, no var1 (null filters)',
    plan('clicks', [group('device', 'device')], [equals('asn', null), equals('var1', null)]),
  ],
  ['a flag that is neither', plan('clicks', [], [equals('is_bot', 'maybe')])],
  [
    'one network, by offer',
    plan(
      'clicks',
      [group('network_offer', 'offer_external_id')],
      [{ kind: 'network', network: 'n1', offers: ['o1', 'o2'] }],
    ),
  ],
  [
    'no network, by offer',
    plan(
      'leads',
      [group('network_offer', 'offer_external_id')],
      [{ kind: 'network', network: null, offers: ['o1', 'o2', 'o3'] }],
    ),
  ],
  ['a network without offers', plan('clicks', [], [{ kind: 'network', network: 'n9', offers: [] }])],
  ['a filter the table never has', plan('leads', [group('campaign', 'campaign_external_id')], [{ kind: 'never' }])],
  ['UTC hours across the DST change', plan('clicks', [group('campaign', 'campaign_external_id')], [], 'hour')],
  [
    'quarter-hours of one campaign, a range split to the millisecond',
    plan(
      'clicks',
      [group('var1', 'var1')],
      [equals('campaign_external_id', 'c3'), ...range(splitAt, '2026-03-31T12:00:00.000Z')],
      'quarter',
    ),
  ],
  [
    'four groupings and hours',
    plan(
      'clicks',
      [
        group('campaign', 'campaign_external_id'),
        group('offer', 'offer_external_id'),
        group('country', 'country'),
        group('device', 'device'),
      ],
      [workspace(1)],
      'hour',
    ),
  ],
  [
    'leads by region × city × isp × language',
    plan('leads', [
      group('region', 'region'),
      group('city', 'city'),
      group('isp', 'isp'),
      group('language', 'language'),
    ]),
  ],
  [
    'leads by var2 and bot reason in quarter-hours',
    plan(
      'leads',
      [group('var2', 'var2'), group('bot_reason', 'bot_reason')],
      [equals('path_id', 'path_id-1')],
      'quarter',
    ),
  ],
  ['a hostile var1 value', plan('clicks', [group('country', 'country')], [equals('var1', HOSTILE_VALUES[3])])],
];

const KEEPS_NOTHING = new Set([
  'a campaign of empty text',
  'no row kept, no groups',
  'a flag that is neither',
  'a network without offers',
  'a filter the table never has',
]);

/** Rows in one order, figures as numbers: what service.ts reads off either. */
function normalized(rows: AggregateRow[]): AggregateRow[] {
  return rows
    .map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, entry]) => [key, key.startsWith('g_') ? entry : Number(entry)]),
      ),
    )
    .sort((a, b) => (groupKey(a) < groupKey(b) ? -1 : groupKey(a) > groupKey(b) ? 1 : 0));
}

function groupKey(row: AggregateRow): string {
  return JSON.stringify(Object.entries(row).filter(([key]) => key.startsWith('g_')));
}

function expectSameRows(actual: AggregateRow[], expected: AggregateRow[]): void {
  const got = normalized(actual);
  const want = normalized(expected);
  expect(got.map(groupKey)).toEqual(want.map(groupKey));
  for (const [index, row] of want.entries()) {
    const other = got[index] as AggregateRow;
    expect(Object.keys(other).sort()).toEqual(Object.keys(row).sort());
    for (const [key, entry] of Object.entries(row)) {
      // Sums of float costs may differ in the last bits with the order they are added in.
      if (key === 'cost') expect(other[key]).toBeCloseTo(entry as number, 9);
      else expect(other[key], `${groupKey(row)} ${key}`).toEqual(entry);
    }
  }
}

onClickHouse('ClickHouse columnar store', () => {
  let store: ClickHouseStore;
  // A batch sent again, as after a retry: the reference counts each key once, and so must the store.
  const resent = generated.clicks.slice(100, 400);
  const clicks: ColumnarRow[] = [...generated.clicks, ...resent];

  beforeAll(async () => {
    store = await openStore('plans');
    await store.append('clicks', generated.clicks);
    await store.append('clicks', resent, { again: true });
    await store.append('leads', generated.leads);
  });
  afterAll(async () => {
    if (store) await dropStore(store);
  });

  it('has the data the plans need', () => {
    expect(splitAt).not.toBe('');
    expect(generated.clicks.some((row) => row.events === 0)).toBe(true);
    const days = new Set(generated.clicks.map((row) => row.created_at.slice(0, 10)));
    expect(days).toContain('2026-03-29');
    expect(days.size).toBeGreaterThanOrEqual(4);
  });

  for (const [title, asked] of PLANS) {
    it(`gives the reference's rows: ${title}`, async () => {
      const expected = aggregateReference(asked, asked.source === 'clicks' ? clicks : generated.leads);
      // A plan meant to keep rows must keep some, or agreeing on nothing would pass.
      expect(expected.length > 0).toBe(!KEEPS_NOTHING.has(title));
      expectSameRows(await store.aggregate(asked), expected);
    });
  }

  it('finds rows by every hostile value, and the tables survive them', async () => {
    for (const hostile of HOSTILE_VALUES) {
      const asked = plan('clicks', [group('device', 'device')], [equals('var1', hostile)]);
      const expected = aggregateReference(asked, clicks);
      expect(expected.length, JSON.stringify(hostile)).toBeGreaterThan(0);
      expectSameRows(await store.aggregate(asked), expected);
    }
    const all = await store.aggregate(plan('clicks', []));
    expect(all[0]?.clicks).toBe(generated.clicks.filter((row) => row.events === 1).length);
  });

  it('takes a filter value of a million characters', async () => {
    const long = `'\\${'x'.repeat(1_000_000)}`;
    expect(await store.aggregate(plan('clicks', [], [equals('var1', long)]))).toEqual([]);
    expect(await store.aggregate(plan('clicks', [], [equals('campaign_external_id', long)]))).toEqual([]);
  });

  it('refuses column names and aliases that are not the store’s', async () => {
    await expect(store.aggregate(plan('clicks', [group('x', 'country); DROP TABLE clicks; --')]))).rejects.toThrow(
      /no column/,
    );
    await expect(
      store.aggregate(plan('clicks', [{ alias: 'g_x FROM clicks; --', value: value('country') }])),
    ).rejects.toThrow(/alias/);
  });
});

onClickHouse('ClickHouse columnar store: a row sent twice', () => {
  let store: ClickHouseStore;
  beforeAll(async () => {
    store = await openStore('twice');
  });
  afterAll(async () => {
    if (store) await dropStore(store);
  });

  it('stores a row key once, sent again in one batch or two', async () => {
    const { clicks, leads } = generateRows({ clicks: 200, leads: 50, seed: 7 });
    await store.append('clicks', clicks);
    await store.append('clicks', [...clicks.slice(0, 50), ...clicks.slice(0, 50), ...clicks.slice(150)], {
      again: true,
    });
    await store.append('leads', [...leads, ...leads]);
    await store.append('leads', leads.slice(10, 20), { again: true });
    // Kept out when sent: what ClickHouse holds is each key once, read without FINAL.
    for (const [table, rows] of [
      ['clicks', clicks],
      ['leads', leads],
    ] as const) {
      const [held] = await store.client.select(`SELECT count() AS rows, uniqExact(row_key) AS keys FROM ${table}`);
      expect(Number(held?.rows), table).toBe(rows.length);
      expect(Number(held?.keys), table).toBe(rows.length);
    }

    const events = clicks.filter((row) => row.events === 1);
    const [click] = await store.aggregate(plan('clicks', []));
    expect(click?.clicks).toBe(events.length);
    expect(click?.unique_clicks).toBe(events.filter((row) => row.unique_events === 1).length);
    expect(click?.cost).toBeCloseTo(
      clicks.reduce((total, row) => total + row.cost, 0),
      9,
    );
    const [lead] = await store.aggregate(plan('leads', []));
    expect(lead?.leads).toBe(leads.length);
    const byDay = plan('clicks', [group('campaign', 'campaign_external_id')], [], 'day');
    expectSameRows(await store.aggregate(byDay), aggregateReference(byDay, clicks));
  });

  it('sends rows it does not hold yet, also when asked to check', async () => {
    const { clicks } = generateRows({ clicks: 30, leads: 0, seed: 8 });
    const fresh = clicks.map((row) => ({ ...row, row_key: `fresh-${row.row_key}` }));
    await store.append('clicks', fresh, { again: true });
    const [held] = await store.client.select("SELECT count() AS rows FROM clicks WHERE startsWith(row_key, 'fresh-')");
    expect(Number(held?.rows)).toBe(fresh.length);
  });
});

onClickHouse('ClickHouse columnar store: two nodes', () => {
  let first: ClickHouseStore;
  let second: ClickHouseStore;
  beforeAll(async () => {
    const url = runUrl('nodes');
    first = await new ClickHouseStore(url).open();
    // The second node opens the same database after the first: creating it again changes nothing.
    second = await new ClickHouseStore(url).open();
  });
  afterAll(async () => {
    if (first) await dropStore(first);
  });

  it('counts what both append at once, and a batch one sends again once', async () => {
    const { clicks, leads } = generateRows({ clicks: 2_000, leads: 300, seed: 5 });
    const half = Math.floor(clicks.length / 2);
    await Promise.all([
      first.append('clicks', clicks.slice(0, half)),
      second.append('clicks', clicks.slice(half)),
      first.append('leads', leads.slice(0, 150)),
      second.append('leads', leads.slice(150)),
    ]);
    // A node sends only what it stored itself; a batch it replays from its journal spans what it
    // sent before its stop and what it did not.
    await second.append('clicks', clicks.slice(half - 200, half + 200), { again: true });
    for (const asked of [
      plan('clicks', [group('campaign', 'campaign_external_id'), group('country', 'country')], [], 'hour'),
      plan('leads', [group('offer', 'offer_external_id')], [], 'day'),
    ]) {
      const expected = aggregateReference(asked, asked.source === 'clicks' ? clicks : leads);
      expectSameRows(await first.aggregate(asked), expected);
      expectSameRows(await second.aggregate(asked), expected);
    }
  });
});

onClickHouse('ClickHouse connections', () => {
  let store: ClickHouseStore;
  beforeAll(async () => {
    store = await openStore('idle');
  });
  afterAll(async () => {
    if (store) await dropStore(store);
  });

  it('appends after the event loop was busy past the server’s keep-alive', { timeout: 30_000 }, async () => {
    const { clicks } = generateRows({ clicks: 20_000, leads: 0, seed: 11 });
    await store.append('clicks', clicks.slice(0, 10));
    // The server (3 s on 18.16) closes the kept-alive connection while nothing here can notice.
    const until = Date.now() + 3_500;
    while (Date.now() < until) {}
    await store.append('clicks', clicks.slice(10));
    const [all] = await store.aggregate(plan('clicks', []));
    expect(all?.clicks).toBe(clicks.filter((row) => row.events === 1).length);
  });
});

onClickHouse('ClickHouse columnar store: a workspace’s rows', () => {
  // Each row in its own workspace, whatever its campaign. c1–c3 are workspace 1's, the rest
  // workspace 2's, but one row in seven is in the other one (its campaign moved since) and one in ten in
  // none (sent before its workspace was known): a report reads the row's workspace_id alone.
  const ours = ['c1', 'c2', 'c3'];
  const inWorkspaces = (rows: ColumnarRow[]) =>
    rows.map((row, index) => {
      const home = row.campaign_external_id !== null && ours.includes(row.campaign_external_id) ? 1 : 2;
      return { ...row, workspace_id: index % 10 === 0 ? 0 : index % 7 === 0 ? 3 - home : home };
    });
  const { clicks, leads } = generateRows({ clicks: 1500, leads: 400, seed: 5 });
  const rows = { clicks: inWorkspaces(clicks), leads: inWorkspaces(leads) };
  const workspace = (id: number): PlanCondition => ({ kind: 'workspace', workspace: id });
  const ASKED: [string, AggregatePlan][] = [
    [
      'workspace 1, by campaign and var1',
      plan('clicks', [group('campaign', 'campaign_external_id'), group('var1', 'var1')], [workspace(1)]),
    ],
    ['workspace 2, leads by country', plan('leads', [group('country', 'country')], [workspace(2)])],
    [
      'workspace 2, one of workspace 1’s campaigns, by var1',
      plan('clicks', [group('var1', 'var1')], [workspace(2), equals('campaign_external_id', 'c1')]),
    ],
    ['a workspace without rows', plan('clicks', [group('subaff', 'subaff')], [workspace(3)])],
    ['the instance, by campaign', plan('clicks', [group('campaign', 'campaign_external_id')], [{ kind: 'instance' }])],
  ];
  let store: ClickHouseStore;
  let url: string;
  beforeAll(async () => {
    url = runUrl('workspaces');
    store = await new ClickHouseStore(url).open();
    // Made as before migration 0023, with its campaign's two hashes on every row.
    await store.client.execute(
      `ALTER TABLE clicks ${['cityHash64', 'sipHash64']
        .map(
          (hash, index) =>
            `ADD COLUMN ${index === 0 ? 'h' : 'k'}_campaign UInt64 MATERIALIZED if(isNull(campaign_external_id), toUInt64(0), ${hash}(assumeNotNull(campaign_external_id)))`,
        )
        .join(', ')}`,
    );
    await store.append('clicks', rows.clicks);
    await store.append('leads', rows.leads);
    // A start on that table.
    await new ClickHouseStore(url).open();
  });
  afterAll(async () => {
    if (store) await dropStore(store);
  });

  it('drops the campaign hash columns of a table made with them, at start', async () => {
    const held = await store.client.select(
      "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'clicks' AND name IN ('h_campaign', 'k_campaign')",
    );
    expect(held).toEqual([]);
  });

  for (const [title, asked] of ASKED) {
    it(`gives the reference's rows: ${title}`, async () => {
      const expected = aggregateReference(asked, asked.source === 'clicks' ? rows.clicks : rows.leads);
      expect(expected.length > 0).toBe(title !== 'a workspace without rows');
      expectSameRows(await store.aggregate(asked), expected);
    });
  }
});

onClickHouse('ClickHouse columnar store: a table made before its computed counts', () => {
  const { clicks } = generateRows({ clicks: 1200, leads: 0, seed: 9 });
  // Made before lp_events: those rows read it as 0.
  const before = clicks.slice(0, 800).map((row) => ({ ...row, lp_events: 0 }));
  const after = clicks.slice(800);
  const OLD_COLUMNS = COLUMNS.filter((column) => column.name !== LP_COLUMN.name);
  const byCampaign = plan('clicks', [group('campaign', 'campaign_external_id')]);
  let store: ClickHouseStore;
  beforeAll(async () => {
    const url = runUrl('before_counts');
    store = new ClickHouseStore(url);
    await store.client.execute(`CREATE DATABASE IF NOT EXISTS ${store.client.target.database}`, { inDatabase: false });
    await store.client.execute(
      createTable('clicks').replace(
        /\(\n[\s\S]*?\n\) ENGINE/,
        `(\n  ${OLD_COLUMNS.map((column) => `${column.name} ${column.type}`).join(',\n  ')}\n) ENGINE`,
      ),
    );
    await store.client.insert(
      'clicks',
      OLD_COLUMNS.map((column) => column.name),
      before.map((row) => {
        const { lp_events: _, ...stored } = storedRow(row);
        return stored;
      }),
    );
    // A start on that table, then clicks sent since.
    await store.open();
    await store.append('clicks', after);
  });
  afterAll(async () => {
    if (store) await dropStore(store);
  });

  it('gains lp_events and the computed counts, at start', async () => {
    const held = await store.client.select(
      "SELECT name FROM system.columns WHERE database = currentDatabase() AND table = 'clicks'",
    );
    const names = held.map((row) => String(row.name));
    for (const column of [LP_COLUMN, ...DERIVED_COLUMNS]) expect(names).toContain(column.name);
  });

  for (const includeBots of [true, false]) {
    it(`counts rows from before and after alike, bots ${includeBots ? 'in' : 'out'}`, async () => {
      const asked = { ...byCampaign, includeBots };
      const expected = aggregateReference(asked, [...before, ...after]);
      // The rows test every computed count: bots, landers and lp clicks on both sides of the start.
      const sum = (name: string) => expected.reduce((total, row) => total + Number(row[name]), 0);
      expect(sum('bot_clicks') > 0 && sum('lander_clicks') > 0 && sum('lp_clicks') > 0).toBe(true);
      expectSameRows(await store.aggregate(asked), expected);
    });
  }
});

onClickHouse('ClickHouse literals', () => {
  // The server's own database: the literals read no table.
  const client = new ClickHouseClient({ ...parseClickHouseUrl(BASE_URL), database: 'system' });

  it('escapes backslashes and quotes, nothing else', () => {
    expect(literal("it's")).toBe("'it\\'s'");
    expect(literal('a\\b')).toBe("'a\\\\b'");
    expect(literal("\\'")).toBe("'\\\\\\''");
    expect(literal('')).toBe("''");
    expect(literal(42)).toBe('42');
    expect(literal(-0.5)).toBe('-0.5');
  });

  it('refuses numbers that are not finite', () => {
    expect(() => literal(Number.NaN)).toThrow(/finite/);
    expect(() => literal(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => literal(Number.NEGATIVE_INFINITY)).toThrow(/finite/);
  });

  it('reads back every hostile value exactly as written', async () => {
    for (const hostile of [...HOSTILE_VALUES, '\\', "'", "\\\\''", `${'y'.repeat(1_000_000)}'\\`]) {
      const [row] = await client.select(`SELECT ${literal(hostile)} AS v, length(${literal(hostile)}) AS n`);
      expect(row?.v === hostile, JSON.stringify(hostile).slice(0, 40)).toBe(true);
      expect(Number(row?.n)).toBe(Buffer.byteLength(hostile));
    }
  });
});
