import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBStore } from '../src/columnar/duckdb.js';
import { COLUMNAR_TEXT_COLUMNS, type ColumnarRow } from '../src/columnar/schema.js';
import type { AggregatePlan, PlanCondition } from '../src/report-plan/plan.js';

// The embedded store keeps routing ids and the visitor's country, device, platform and browser
// as numbers too (columnar/duckdb-codes.ts). Reports must name every group as it was stored, whatever
// happened to the dictionaries: a store opened again, a pass rolled back, an older store's layout.

let id = 0;
function click(values: Partial<ColumnarRow>): ColumnarRow {
  id += 1;
  const text = Object.fromEntries(COLUMNAR_TEXT_COLUMNS.map((name) => [name, null])) as Record<string, null>;
  return {
    ...text,
    row_key: `click-${id}`,
    source_id: id,
    workspace_id: 1,
    created_at: '2026-11-20T10:00:00.000Z',
    events: 1,
    unique_events: 1,
    cost: 0.5,
    asn: null,
    is_bot: 0,
    lp_events: 0,
    ...values,
  } as ColumnarRow;
}

const column = (name: string) => ({ name, origin: false });
const plan = (groups: string[], where: PlanCondition[] = []): AggregatePlan => ({
  source: 'clicks',
  time: 'created_at',
  groups: groups.map((name) => ({ alias: `g_${name}`, value: { column: column(name), as: 'value' } })),
  buckets: null,
  where,
  includeBots: true,
});

/** Rows as `value / value → clicks`, sorted: what a report would show. */
async function shown(store: DuckDBStore, groups: string[], where: PlanCondition[] = []): Promise<string[]> {
  const rows = await store.aggregate(plan(groups, where));
  return rows.map((row) => `${groups.map((name) => String(row[`g_${name}`])).join(' / ')} → ${row.clicks}`).sort();
}

describe('the embedded store names groups from its dictionaries', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'switchyard-codes-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('across opening again and a pass rolled back', async () => {
    const file = path.join(dir, 'store.duckdb');
    let store = await DuckDBStore.open(file);
    await store.append('clicks', [
      click({ campaign_external_id: 'camp-a', country: 'US' }),
      click({ campaign_external_id: 'camp-b', country: null }),
      click({ campaign_external_id: 'camp-a', country: 'DE' }),
    ]);
    // A pass that fails after giving camp-c a number keeps neither its rows nor that number.
    await expect(
      store.transaction(async () => {
        await store.append('clicks', [click({ campaign_external_id: 'camp-c', country: 'FR' })]);
        throw new Error('the pass failed');
      }),
    ).rejects.toThrow('the pass failed');
    await store.append('clicks', [click({ campaign_external_id: 'camp-d', country: 'US' })]);
    await store.append('clicks', [click({ campaign_external_id: 'camp-c', country: 'FR' })]);
    expect(await shown(store, ['campaign_external_id', 'country'])).toEqual([
      'camp-a / DE → 1',
      'camp-a / US → 1',
      'camp-b / null → 1',
      'camp-c / FR → 1',
      'camp-d / US → 1',
    ]);
    await store.close();

    store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(false);
    await store.append('clicks', [
      click({ campaign_external_id: 'camp-e', country: 'GB' }),
      click({ campaign_external_id: 'camp-a', country: 'US' }),
    ]);
    expect(await shown(store, ['campaign_external_id'])).toEqual([
      'camp-a → 3',
      'camp-b → 1',
      'camp-c → 1',
      'camp-d → 1',
      'camp-e → 1',
    ]);
    // Filters by the numbers: a value, no value, a value no event has had.
    const campaign = { column: column('campaign_external_id'), as: 'value' as const };
    const country = { column: column('country'), as: 'value' as const };
    expect(await shown(store, ['country'], [{ kind: 'equals', value: country, to: 'US' }])).toEqual(['US → 3']);
    expect(await shown(store, ['campaign_external_id'], [{ kind: 'equals', value: country, to: null }])).toEqual([
      'camp-b → 1',
    ]);
    expect(await shown(store, ['country'], [{ kind: 'equals', value: campaign, to: 'camp-e' }])).toEqual(['GB → 1']);
    expect(await shown(store, ['country'], [{ kind: 'equals', value: campaign, to: 'camp-unknown' }])).toEqual([]);
    expect(await shown(store, ['country'], [{ kind: 'equals', value: country, to: 'ZZ' }])).toEqual([]);
    await store.close();
  });

  it('empties a store written before the numbers, to be copied again', async () => {
    const file = path.join(dir, 'older.duckdb');
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run('create table clicks (row_key varchar not null, source_id bigint not null)');
    await connection.run("insert into clicks values ('click-1', 1)");
    await connection.run('create table progress (name varchar not null, value bigint not null)');
    await connection.run("insert into progress values ('conversions_copied', 1)");
    connection.closeSync();
    instance.closeSync();

    let store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(true);
    expect(await store.lastSourceId('clicks')).toBe(0);
    expect(await store.progress('conversions_copied')).toBe(0);
    await store.append('clicks', [click({ campaign_external_id: 'camp-a', country: 'US' })]);
    await store.close();

    store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(false);
    expect(await shown(store, ['campaign_external_id', 'country'])).toEqual(['camp-a / US → 1']);
    await store.close();
  });

  it("empties a store whose events took their campaign's workspace (layout 2), to be copied again", async () => {
    const file = path.join(dir, 'campaign-workspaces.duckdb');
    let store = await DuckDBStore.open(file);
    await store.append('clicks', [click({ campaign_external_id: 'camp-a', country: 'US' })]);
    await store.setProgress('format', 2);
    await store.close();

    store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(true);
    expect(await store.lastSourceId('clicks')).toBe(0);
    await store.close();
  });

  it('adds lander clicks to a store of layout 4 in place, keeping its rows', async () => {
    const file = path.join(dir, 'before-lander-events.duckdb');
    let store = await DuckDBStore.open(file);
    await store.append('clicks', [
      click({ lander_external_id: 'lander-a', offer_external_id: 'offer-a' }),
      click({ lander_external_id: null, offer_external_id: 'offer-a' }),
      click({ lander_external_id: 'lander-b', offer_external_id: 'offer-b', is_bot: 1 }),
    ]);
    await store.close();
    // The store as layout 4 wrote it: no lander_events.
    const instance = await DuckDBInstance.create(file);
    const connection = await instance.connect();
    await connection.run('alter table clicks drop column lander_events');
    await connection.run('alter table leads drop column lander_events');
    await connection.run("update progress set value = 4 where name = 'format'");
    connection.closeSync();
    instance.closeSync();

    store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(false);
    // Appended after the upgrade, in the column order a new store has.
    await store.append('clicks', [click({ lander_external_id: 'lander-a', offer_external_id: 'offer-b' })]);
    const rows = await store.aggregate({ ...plan(['offer_external_id']), includeBots: false });
    expect(
      rows.map((row) => `${row.g_offer_external_id}: ${row.clicks} clicks, ${row.lander_clicks} by a lander`).sort(),
    ).toEqual(['offer-a: 2 clicks, 1 by a lander', 'offer-b: 1 clicks, 1 by a lander']);
    await store.close();

    store = await DuckDBStore.open(file);
    expect(store.relaid).toBe(false);
    expect(await store.lastSourceId('clicks')).toBe(id);
    await store.close();
  });
});
