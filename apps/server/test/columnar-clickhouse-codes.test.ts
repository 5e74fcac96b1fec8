// ClickHouse groups a whole report's bounded text columns by codes issued by PostgreSQL
// (columnar/clickhouse-codes.ts), on 18.16 and on 26.7 (chdb): every report equals the event tables',
// hostile values, empty text, nulls, names and their order included; a row whose code the report's
// dictionary lacks waits for the next report; and nodes on one PostgreSQL give a value one code.
import { type TReportQuery, ZReportQuery } from '@switchyard/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ClickHouseStore } from '../src/columnar/clickhouse.js';
import { ClickHouseClient, parseClickHouseUrl } from '../src/columnar/clickhouse-client.js';
import { CodeDictionary, CodeIssuer } from '../src/columnar/clickhouse-codes.js';
import { ClickHouseFeed } from '../src/columnar/clickhouse-feed.js';
import { loadConfig } from '../src/config.js';
import type { ColumnarReader } from '../src/report-plan/columnar-reader.js';
import { ReportsService } from '../src/reports/service.js';
import { migrateToLatest, openStore, type Store } from '../src/store/database.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import type { EventFeed } from '../src/store/traffic/kysely-sink.js';
import { ChdbClient, onChdb } from './chdb-support.js';
import { onClickHouse, runUrl } from './clickhouse-support.js';
import { CODED_REPORTS, codedEvents, nameValues } from './fixtures/coded-events.js';
import { addEvents, changeConversions, generateConversions, storeConversions } from './fixtures/columnar-events.js';
import { generateRows } from './fixtures/columnar-rows.js';
import { DatabaseUnderTest } from './harness.js';

const silent = { info: () => undefined, warn: () => undefined };
const query = (input: Record<string, unknown>): TReportQuery => ZReportQuery.parse({ limit: 0, ...input });

/** A store's whole reports, counted: a report merged elsewhere would agree without its statement. */
function reader(store: ClickHouseStore, feed: ClickHouseFeed, counted: { reports: number }): ColumnarReader {
  return {
    kind: 'clickhouse',
    ready: true,
    conversions: true,
    catchUp: () => Promise.all([feed.sendCostChanges(), feed.sendConversionChanges()]),
    aggregate: (plan) => store.aggregate(plan),
    report: (paged) => {
      counted.reports += 1;
      return store.report(paged);
    },
  };
}

async function dropDatabase(url: string): Promise<void> {
  const client = new ClickHouseClient(parseClickHouseUrl(url));
  await client.execute(`DROP DATABASE IF EXISTS ${client.target.database}`, { inDatabase: false });
}

onChdb('ClickHouse codes on 18.16 and 26.7', () => {
  onClickHouse('a coded store reports as the event tables do [postgres]', () => {
    const db = new DatabaseUnderTest('postgres');
    const url = runUrl('coded');
    let store: Store;
    let chdb: ChdbClient;
    const feeds: ClickHouseFeed[] = [];
    const both: EventFeed = {
      sendEvents: async (clicks, leads, options) => {
        for (const feed of feeds) await feed.sendEvents(clicks, leads, options);
      },
    };

    beforeAll(async () => {
      store = openStore(loadConfig({ ...(await db.createDatabase()) }));
      await migrateToLatest(store);
      await nameValues(store.db);
      chdb = await ChdbClient.open(parseClickHouseUrl(url).database);
      for (const target of [new ClickHouseStore(url), new ClickHouseStore(chdb)]) {
        feeds.push(new ClickHouseFeed(store.db, target, silent, { backfillBatch: 200, pruneAfterMs: 0 }));
        await target.open();
      }
      // Copied by the backfill, then sent by the writer.
      const before = codedEvents(900, 41);
      const writer = new EventWriter(store.db, { maxBatch: 250 });
      addEvents(writer, before);
      await writer.close();
      await storeConversions(store.db, generateConversions(before, 41));
      for (const feed of feeds) await feed.backfill();
      const since = codedEvents(900, 42, 10_000);
      const sending = new EventWriter(store.db, { maxBatch: 250, feed: both });
      addEvents(sending, since);
      await sending.close();
      await storeConversions(store.db, generateConversions(since, 42));
      await changeConversions(store.db, 41);
      // Removed: its last row read back from ClickHouse, coded again when sent.
      await store.db.deleteFrom('conversions').where('conversion_id', 'in', ['conv-41-3', 'conv-42-4']).execute();
      for (const feed of feeds) await feed.sendConversionChanges();
    }, 180_000);

    afterAll(async () => {
      await dropDatabase(url);
      await chdb?.close();
      await store?.db.destroy();
      await db.cleanup();
    });

    it('marks the tables it made coded, on both', async () => {
      for (const feed of feeds) expect(await feed.store.progress('codes')).toBe(1);
    });

    it.each(CODED_REPORTS.map((report) => [JSON.stringify(report), report] as const))(
      '%s: 18.16, 26.7 and the event tables agree',
      async (_, report) => {
        const fromEvents = await new ReportsService(store.db, { rollups: false }).run(query(report), {
          instance: true,
        });
        expect(fromEvents.total).toBeGreaterThan(0);
        for (const feed of feeds) {
          const counted = { reports: 0 };
          const columnar = reader(feed.store, feed, counted);
          const fromColumns = await new ReportsService(store.db, { rollups: false, columnar }).run(query(report), {
            instance: true,
          });
          expect(fromColumns).toEqual(fromEvents);
          expect(counted.reports).toBe(1);
        }
      },
    );

    it('shows the hostile values, empty text and names the events hold', async () => {
      const shown = await new ReportsService(store.db, { rollups: false }).run(query({ group_by: 'campaign' }), {
        instance: true,
      });
      const campaigns = shown.list.map((row) => (row as unknown as { campaign: string }).campaign);
      expect(campaigns).toEqual(expect.arrayContaining(['', "it's", 'back\\slash', 'camp-a', 'camp-b', 'camp-c']));
      const countries = await new ReportsService(store.db, { rollups: false }).run(query({ group_by: 'country' }), {
        instance: true,
      });
      const values = countries.list.map((row) => (row as unknown as { country: string | null }).country);
      expect(values).toEqual(expect.arrayContaining([null, '', "'); DROP TABLE clicks; --", 'GB']));
    });
  });
});

onClickHouse('a report and the codes issued while it runs [postgres]', () => {
  const db = new DatabaseUnderTest('postgres');
  const url = runUrl('race');
  let store: Store;
  const feeds: ClickHouseFeed[] = [];

  beforeAll(async () => {
    store = openStore(loadConfig({ ...(await db.createDatabase()) }));
    await migrateToLatest(store);
    // Two nodes on one PostgreSQL and one ClickHouse, each with its issuer and what it learnt.
    for (let node = 0; node < 2; node += 1) {
      const target = new ClickHouseStore(url);
      feeds.push(new ClickHouseFeed(store.db, target, silent, { pruneAfterMs: 0 }));
      await target.open();
      await feeds[node]!.backfill();
    }
  }, 60_000);

  afterAll(async () => {
    await dropDatabase(url);
    await store?.db.destroy();
    await db.cleanup();
  });

  const run = (columnar?: ColumnarReader) =>
    new ReportsService(store.db, { rollups: false, ...(columnar ? { columnar } : {}) }).run(
      query({ group_by: 'campaign,country,device', order_by: 'label' }),
      { instance: true },
    );

  it('counts what two nodes send at once, each value under one code in ClickHouse', async () => {
    const events = codedEvents(1200, 51, 20_000);
    const half = { clicks: events.clicks.length / 2, leads: events.leads.length / 2 };
    await Promise.all(
      feeds.map(async (feed, node) => {
        const writer = new EventWriter(store.db, { maxBatch: 100, feed });
        addEvents(writer, {
          clicks: events.clicks.filter((_, index) => index < half.clicks === (node === 0)),
          leads: events.leads.filter((_, index) => index < half.leads === (node === 0)),
        });
        await writer.close();
      }),
    );
    const client = feeds[0]!.store.client;
    expect(
      await client.select(
        'SELECT name, value FROM (SELECT DISTINCT code, name, value FROM codes) GROUP BY name, value HAVING count() > 1',
      ),
    ).toEqual([]);
    expect(await client.select('SELECT code FROM codes GROUP BY code HAVING uniqExact(name, value) > 1')).toEqual([]);
    const counted = { reports: 0 };
    expect(await run(reader(feeds[1]!.store, feeds[1]!, counted))).toEqual(await run());
    expect(counted.reports).toBe(1);
  });

  it('leaves out a row whose code came after the dictionary it read, and counts it in the next', async () => {
    // Numbers no value holds (as a value inserted by two nodes at once takes): the dictionary has gaps.
    await sql`select nextval(pg_get_serial_sequence('columnar_codes', 'code')) from generate_series(1, 40)`.execute(
      store.db,
    );
    const before = await run();
    const late = codedEvents(40, 52, 30_000);
    late.clicks = late.clicks.map((click, index) => ({
      ...click,
      campaign_external_id: 'camp-late',
      country: index % 2 === 0 ? 'ZZ' : 'GB',
    }));
    late.leads = [];
    const writer = new EventWriter(store.db, { maxBatch: 100 });
    addEvents(writer, late);
    await writer.close();
    const after = await run();
    expect(after).not.toEqual(before);

    // Node 0's report reads its dictionary; node 1 issues camp-late and ZZ and sends the clicks before the
    // report's statement runs.
    const reading = feeds[0]!.store;
    const racing = Object.create(reading.client) as ClickHouseClient;
    let sent = false;
    racing.answer = async (statement) => {
      if (!sent && statement.includes('WITH TOTALS')) {
        sent = true;
        await feeds[1]!.sendEvents(
          late.clicks.map((click) => click.click_id),
          [],
        );
      }
      return reading.client.answer(statement);
    };
    const racy = new ClickHouseStore(racing);
    const counted = { reports: 0 };
    expect(await run(reader(racy, feeds[0]!, counted))).toEqual(before);
    expect(sent).toBe(true);
    expect(await run(reader(racy, feeds[0]!, counted))).toEqual(after);
    expect(counted.reports).toBe(2);
    const [held] = await reading.client.select('SELECT max(code) AS max, uniqExact(code) AS codes FROM codes');
    expect(Number(held?.max)).toBeGreaterThan(Number(held?.codes));
  });

  it('gives a value one code when two issuers ask at once', async () => {
    const values = Array.from({ length: 300 }, (_, index) => `value-${index}`);
    const [first, second] = await Promise.all([
      new CodeIssuer(store.db).issue('country', values),
      new CodeIssuer(store.db).issue('country', [...values].reverse()),
    ]);
    expect([...second!].sort()).toEqual([...first!].sort());
    expect(new Set(first!.values()).size).toBe(values.length);
    const [held] = await store.db
      .selectFrom('columnar_codes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('name', '=', 'country')
      .where('value', 'like', 'value-%')
      .execute();
    expect(Number(held?.n)).toBe(values.length);
  });

  it('refuses rows from a store that gives no codes into coded tables', async () => {
    const plain = new ClickHouseStore(url);
    await expect(plain.appendConversions([{ conversion_id: 'x' }])).rejects.toThrow(/codes/);
    const { clicks } = generateRows({ clicks: 3, leads: 0 });
    await expect(plain.append('clicks', clicks)).rejects.toThrow(/codes/);
    const [held] = await plain.client.select("SELECT count() AS n FROM clicks WHERE startsWith(row_key, 'clicks-')");
    expect(Number(held?.n)).toBe(0);
  });
});

onClickHouse('the codes a report can name', () => {
  const url = runUrl('dictionary');
  let client: ClickHouseClient;

  beforeAll(async () => {
    client = new ClickHouseClient(parseClickHouseUrl(url));
    await client.execute(`CREATE DATABASE IF NOT EXISTS ${client.target.database}`, { inDatabase: false });
    await client.execute(
      'CREATE TABLE codes (code UInt32, name String, value String) ENGINE = ReplacingMergeTree ORDER BY code',
    );
    await client.execute('CREATE TABLE clicks (code_country UInt32) ENGINE = Memory');
    await client.insert(
      'clicks',
      ['code_country'],
      Array.from({ length: 60 }, (_, code) => ({ code_country: code })),
    );
  });
  afterAll(() => dropDatabase(url));

  // Country's codes and another column's, with none, a few or many numbers missing below the highest.
  const CASES: [string, number[], number[]][] = [
    ['no gap', [1, 2, 5, 6], [3, 4]],
    ['a gap, fewer than the column’s codes', [1, 2, 5, 6, 9], [3, 4, 7]],
    ['more gaps than the column’s codes', [2, 30], [1, 7, 45]],
  ];
  it.each(CASES)('%s: 0 and every code held, no other', async (_, country, other) => {
    await client.execute('TRUNCATE TABLE codes');
    await client.insert(
      'codes',
      ['code', 'name', 'value'],
      [
        ...country.map((code) => ({ code, name: 'country', value: `c${code}` })),
        ...other.map((code) => ({ code, name: 'device', value: `d${code}` })),
        // Copied twice, as two nodes may.
        { code: country[0], name: 'country', value: `c${country[0]}` },
      ],
    );
    const dictionary = await CodeDictionary.load(client);
    expect(dictionary.entries('country')).toEqual({ codes: country, values: country.map((code) => `c${code}`) });
    const admitted = (
      await client.select(`SELECT code_country FROM clicks WHERE ${dictionary.known('country')} ORDER BY code_country`)
    ).map((row) => Number(row.code_country));
    // A row's country code is never another column's: those may pass or not.
    expect(admitted.filter((code) => !other.includes(code))).toEqual([0, ...country]);
  });
});
