import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, openStore } from '../src/store/database.js';
import { EngineStore } from '../src/store/traffic/engine-store.js';
import { EventWriter } from '../src/store/traffic/event-writer.js';
import { Journal, type JournalLog, leftSegments, readSegment } from '../src/store/traffic/journal.js';
import { eventLine, eventPayload, payloadBatches } from '../src/store/traffic/sqlite-events.js';
import { createRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, capturedLog, login } from './harness.js';

// The event journal. A segment cut off or damaged at a crash is read up to its last whole
// record and the rest is reported, never a failed start; replay is idempotent; a journal that cannot be
// written (a full disk) answers 503 and never answers an event it did not keep.

const IN_CI = process.env.CI === 'true';

function collectingLog(): JournalLog & { lines: { object: unknown; message: string }[] } {
  const lines: { object: unknown; message: string }[] = [];
  const keep = (object: unknown, message: string) => lines.push({ object, message });
  return { lines, info: keep, warn: keep, error: keep };
}

const click = (id: string) => ({
  click_id: id,
  created_at: '2026-11-24T10:00:00.000Z',
  campaign_external_id: 'camp',
  visitor_id: 'visitor',
  is_unique: 1,
  vars: '{"var1":"a\\nb"}',
  cost: 0.25,
  is_bot: 0,
  reason: 'matched',
  workspace_id: 0,
  // Values that must come back exactly: multi-byte text, the journal's own separators.
  user_agent: 'Mozilla/5.0 ✓ 日本 J12 abc:\n',
});

const temporaryDirs: string[] = [];
async function temporaryDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'switchyard-journal-'));
  temporaryDirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of temporaryDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A segment of writes of the given numbers of clicks (`chunks` writes of `perChunk`); answers its file. */
function writeSegment(dir: string, chunks: number | readonly number[], perChunk = 0): string {
  const journal = new Journal({ dir, fsyncIntervalMs: 0, log: collectingLog() });
  const sizes = typeof chunks === 'number' ? Array.from({ length: chunks }, () => perChunk) : chunks;
  for (const [chunk, size] of sizes.entries()) {
    const lines = Array.from({ length: size }, (_, index) => eventLine('tracker_clicks', click(`c${chunk}-${index}`)));
    journal.write(
      eventPayload(
        lines.map(() => 'tracker_clicks'),
        lines,
      ),
      0,
    );
  }
  const [file] = journal.closeAll(0);
  return String(file);
}

describe('event payloads', () => {
  it('read back as runs of one table, in order, and refuse a text that is not events', () => {
    const lead = { lead_id: 'l1', created_at: '2026-11-24T10:00:00.000Z', campaign_external_id: 'api' };
    const lines = [
      eventLine('tracker_clicks', click('a')),
      eventLine('tracker_leads', lead),
      eventLine('tracker_clicks', click('b')),
      eventLine('tracker_clicks', click('c')),
    ];
    const tables = ['tracker_clicks', 'tracker_leads', 'tracker_clicks', 'tracker_clicks'] as const;
    const payload = eventPayload(tables, lines);
    expect(payloadBatches(payload).map((batch) => [batch.table, batch.rows.length])).toEqual([
      ['tracker_clicks', 1],
      ['tracker_leads', 1],
      ['tracker_clicks', 2],
    ]);
    expect(payloadBatches(payload, 1)).toHaveLength(4);
    expect(payloadBatches(payload)[2]!.rows[1]![0]).toBe('c');
    expect(() => payloadBatches(payload.slice(0, -1))).toThrow();
    expect(() => payloadBatches(`x${payload}`)).toThrow(/no event/);
    // A length that does not match the line it announces.
    expect(() => payloadBatches(payload.replace(`c${lines[0]!.length}:`, `c${lines[0]!.length + 1}:`))).toThrow();
  });
});

describe('journal segments', () => {
  it('reads back every event exactly as written', async () => {
    const file = writeSegment(await temporaryDir(), 3, 4);
    const log = collectingLog();
    const payloads = [...readSegment(file, log)];
    expect(payloads).toHaveLength(3);
    const lines = Array.from({ length: 12 }, (_, index) =>
      eventLine('tracker_clicks', click(`c${Math.floor(index / 4)}-${index % 4}`)),
    );
    expect(payloads.join('')).toBe(
      eventPayload(
        lines.map(() => 'tracker_clicks'),
        lines,
      ),
    );
    const batches = payloadBatches(payloads.join(''));
    expect(batches.map((batch) => [batch.table, batch.rows.length])).toEqual([['tracker_clicks', 12]]);
    expect(batches[0]!.rows[5]).toContain('Mozilla/5.0 ✓ 日本 J12 abc:\n');
    expect(log.lines).toEqual([]);
  });

  it('reads back chunks of every size, one past the buffer the journal keeps between them too', async () => {
    // 12,000 clicks are over 2 MB once encoded: that chunk is written from a buffer of its own, and the
    // ones after it from the kept buffer again, grown once for 300.
    const sizes = [2, 12_000, 1, 300, 3];
    const payloads = [...readSegment(writeSegment(await temporaryDir(), sizes), collectingLog())];
    expect(payloads.map((payload) => payloadBatches(payload)[0]!.rows.length)).toEqual(sizes);
    for (const [chunk, size] of sizes.entries()) {
      const rows = payloadBatches(payloads[chunk]!)[0]!.rows;
      expect(rows.at(-1)).toEqual(
        payloadBatches(
          eventPayload(['tracker_clicks'], [eventLine('tracker_clicks', click(`c${chunk}-${size - 1}`))]),
        )[0]!.rows[0],
      );
    }
  });

  it('reads a segment cut off mid-record up to its last whole record, and reports the rest', async () => {
    const file = writeSegment(await temporaryDir(), 3, 4);
    const size = readFileSync(file).length;
    truncateSync(file, size - 25);
    const log = collectingLog();
    expect(payloadBatches([...readSegment(file, log)].join(''))[0]!.rows).toHaveLength(8);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]!.message).toContain('cut off');
    expect(log.lines[0]!.object).toMatchObject({ bytes: expect.any(Number) });
  });

  it("leaves another running process's segments to it, and claims a dead one's or a process id taken over", async () => {
    const dir = await temporaryDir();
    /** A segment's name once this process has claimed it: its own process id in place of the writer's. */
    const claimed = (file: string) =>
      path.join(dir, path.basename(file).replace(/^(events-\d+-)\d+-/, `$1${process.pid}-`));
    const file = writeSegment(dir, 1, 1);
    // The parent process (vitest's) is running: its id stands for another node on the same directory.
    const other = path.join(dir, path.basename(file).replace(`-${process.pid}-`, `-${process.ppid}-`));
    renameSync(file, other);
    const log = collectingLog();
    // Its id is running, but nothing says a journal of it is: a process id taken over after a crash. The
    // segment is claimed (renamed as this process's), so no other process starting now replays it too.
    expect(leftSegments(dir, log)).toEqual([claimed(other)]);
    expect(existsSync(other)).toBe(false);
    // A running process's segment stays its own; the claimed one is still this process's to replay.
    const second = writeSegment(dir, 1, 1);
    const running = path.join(dir, path.basename(second).replace(`-${process.pid}-`, `-${process.ppid}-`));
    renameSync(second, running);
    writeFileSync(path.join(dir, `alive-${process.ppid}`), '');
    expect(leftSegments(dir, log)).toEqual([claimed(other)]);
    expect(existsSync(running)).toBe(true);
    expect(log.lines.at(-1)?.message).toContain('another running process');
    // A process that is gone: its segments are claimed whatever its file says, and its file goes.
    const dead = running.replace(`-${process.ppid}-`, '-2147483646-');
    renameSync(running, dead);
    writeFileSync(path.join(dir, 'alive-2147483646'), '');
    const left = leftSegments(dir, log);
    expect(left.toSorted()).toEqual([claimed(other), claimed(dead)].toSorted());
    expect(existsSync(path.join(dir, 'alive-2147483646'))).toBe(false);
  });

  it('stops at a record whose checksum is wrong', async () => {
    const file = writeSegment(await temporaryDir(), 3, 4);
    const bytes = readFileSync(file);
    // A byte inside the second chunk's events (a chunk is `J{bytes} {crc32}\n` and its events).
    const space = bytes.indexOf(0x20);
    const second = space + 10 + Number(bytes.toString('latin1', 1, space));
    expect(bytes[second]).toBe(0x4a);
    const inside = bytes.indexOf(0x0a, second) + 5;
    bytes[inside] = bytes[inside]! ^ 0x01;
    writeFileSync(file, bytes);
    const log = collectingLog();
    expect(payloadBatches([...readSegment(file, log)].join(''))[0]!.rows).toHaveLength(4);
    expect(log.lines[0]!.message).toContain('checksum');
  });
});

describe('the event writer with a journal', () => {
  /** A migrated SQLite store in a new data directory, its journal's folder and a log, closed after `run`. */
  async function onSqlite(
    run: (
      store: ReturnType<typeof openStore>,
      journalDir: string,
      log: ReturnType<typeof collectingLog>,
    ) => Promise<void>,
  ): Promise<void> {
    const dataDir = await temporaryDir();
    const store = openStore({ databaseUrl: undefined, dataDir });
    try {
      await migrateToLatest(store);
      await run(store, path.join(dataDir, 'journal'), collectingLog());
    } finally {
      await store.db.destroy();
    }
  }

  it('deletes the segments whose clicks are stored while it runs, and keeps the one being written', () =>
    onSqlite(async (store, journalDir, log) => {
      // Segments of 1 KB: a commit of 20 clicks (about 3 KB) fills one, so each commit starts the next.
      const journal = new Journal({ dir: journalDir, fsyncIntervalMs: 1000, segmentBytes: 1024, log });
      const writer = new EventWriter(store.db, { sqlite: store.sqlite!, journal, flushIntervalMs: 10, log });
      const segments = () => readdirSync(journalDir).filter((name) => name.endsWith('.journal'));
      for (let turn = 0; turn < 5; turn += 1) {
        for (let index = 0; index < 20; index += 1) writer.addClick(click(`s${turn}-${index}`));
        writer.commit();
      }
      // The fifth commit filled the segment it opened; the segment stays open until a write finds it full.
      expect(segments()).toHaveLength(5);
      await writer.flush();
      // The writer looks for stored segments every second and deletes them without blocking the clicks.
      await expect.poll(segments, { timeout: 5000, interval: 50 }).toHaveLength(1);
      expect(log.lines).toEqual([]);
      await writer.close();
      expect(segments()).toEqual([]);
      expect((await store.db.selectFrom('tracker_clicks').select('click_id').execute()).length).toBe(100);
    }));

  it('keeps in the journal what a stopped writer thread lost, for the next start to store', () =>
    onSqlite(async (store, journalDir, log) => {
      const journal = new Journal({ dir: journalDir, fsyncIntervalMs: 1000, log });
      const writer = new EventWriter(store.db, {
        sqlite: store.sqlite!,
        journal,
        flushIntervalMs: 3_600_000,
        maxBatch: 100_000,
        log,
      });
      const id = (index: number) => `w${String(index).padStart(3, '0')}`;
      for (let index = 0; index < 300; index += 1) writer.addClick(click(id(index)));
      await writer.flush();
      for (let index = 300; index < 700; index += 1) writer.addClick(click(id(index)));
      writer.commit();
      // Handed over but not written: the worker waits for more. Stopped the way a crash would.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await (writer as unknown as { sink: { worker: Worker } }).sink.worker.terminate();
      for (let index = 700; index < 750; index += 1) writer.addClick(click(id(index)));
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await writer.close();
      const stored = async () => (await store.db.selectFrom('tracker_clicks').select('click_id').execute()).length;
      expect(await stored()).toBe(350);
      // The segment with the lost rows stayed; the next start's replay stores them, and nothing twice.
      expect(readdirSync(journalDir).filter((name) => name.endsWith('.journal')).length).toBeGreaterThan(0);
      const replayed = await new EngineStore(store.db, store.sqlite).replayJournal(journalDir, log);
      expect(replayed.stored).toBe(400);
      expect(await stored()).toBe(750);
    }));
});

describe('the journal at start', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function start(dataDir: string, logs: string[] = []): Promise<FastifyInstance> {
    const app = await buildApp({
      config: loadConfig({
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      }),
      print: () => undefined,
      logger: capturedLog(logs),
    });
    apps.push(app);
    return app;
  }

  const storedClicks = async (app: FastifyInstance) =>
    (await app.store.db.selectFrom('tracker_clicks').select('click_id').orderBy('click_id').execute()).map(
      (row) => row.click_id,
    );
  /** The clicks each report cube counts (every cube counts every click once). */
  const cubeClicks = async (app: FastifyInstance) => {
    const cubes = await app.store.db
      .selectFrom('report_rollups')
      .select(['cube', (eb) => eb.fn.sum<number | string>('clicks').as('clicks')])
      .groupBy('cube')
      .execute();
    expect(cubes.length).toBeGreaterThan(0);
    return [...new Set(cubes.map((cube) => Number(cube.clicks)))];
  };

  it('starts on a cut-off journal, stores its whole records once, and says what it could not read', async () => {
    const dataDir = await temporaryDir();
    const journalDir = path.join(dataDir, 'journal');
    mkdirSync(journalDir, { recursive: true });
    const file = writeSegment(journalDir, 2, 3);
    truncateSync(file, readFileSync(file).length - 7);
    const logs: string[] = [];
    const app = await start(dataDir, logs);
    expect(await storedClicks(app)).toEqual(['c0-0', 'c0-1', 'c0-2']);
    expect(await cubeClicks(app)).toEqual([3]);
    expect(logs.join('\n')).toContain('event journal cut off');
    expect(readdirSync(journalDir).filter((name) => name.endsWith('.journal'))).toEqual([]);
    await app.close();
    apps.length = 0;

    // The same segment again (a crash between the replay and its deletion): nothing is stored twice.
    writeSegment(journalDir, 2, 3);
    const again = await start(dataDir);
    expect(await storedClicks(again)).toEqual(['c0-0', 'c0-1', 'c0-2', 'c1-0', 'c1-1', 'c1-2']);
    expect(await cubeClicks(again)).toEqual([6]);
  });

  it('answers 503 when the journal cannot be written, and stores no event it did not answer', async (context) => {
    if (process.getuid?.() !== 0) {
      if (IN_CI) throw new Error('a full disk is made with a small tmpfs, which needs root (CI runs as root)');
      context.skip();
    }
    const dataDir = await temporaryDir();
    const journalDir = path.join(dataDir, 'journal');
    mkdirSync(journalDir, { recursive: true });
    // A real full disk: the journal's directory on a 64 KiB file system.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', journalDir]);
    try {
      const app = await start(dataDir);
      const token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
      const offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
      const flow = await createRecord(app, token, 'tracker-flows', {
        path_groups: [
          { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
        ],
      });
      const campaign = await createRecord(app, token, 'tracker-campaigns', { flow_external_id: flow.external_id });
      const answered: string[] = [];
      let refused = 0;
      for (let index = 0; index < 400 && refused < 5; index += 1) {
        const response = await app.inject({
          method: 'GET',
          url: `/c/${campaign.external_id}?var1=${'x'.repeat(500)}`,
          headers: { 'user-agent': 'y'.repeat(1000) },
        });
        if (response.statusCode === 302) {
          answered.push(new URL(String(response.headers.location)).searchParams.get('c')!);
          continue;
        }
        expect(response.statusCode, response.body).toBe(503);
        expect(response.json()).toEqual({ message: expect.stringContaining('cannot keep this event') });
        refused += 1;
      }
      expect(refused).toBe(5);
      expect(answered.length).toBeGreaterThan(10);
      // A lead is refused the same way, and not stored.
      const apiOffer = await createRecord(app, token, 'offers', { url: 'https://api.example/?l={lead_id}' });
      const apiFlow = await createRecord(app, token, 'flows', {
        path_groups: [{ id: 'g', name: 'All', paths: [{ id: 'p', offer_external_id: apiOffer.external_id }] }],
      });
      const apiCampaign = await createRecord(app, token, 'campaigns', { flow_external_id: apiFlow.external_id });
      const lead = await app.inject({
        method: 'POST',
        url: `/v1/campaigns/${apiCampaign.external_id}/leads`,
        headers: { 'x-api-key': String(apiCampaign.ingest_token) },
        // Larger than any room a refused click left.
        payload: {
          email: 'someone@gmail.com',
          user_agent: 'u'.repeat(2000),
          vars: { var1: 'z'.repeat(1000), var2: 'z'.repeat(1000), var3: 'z'.repeat(1000) },
        },
      });
      expect(lead.statusCode, lead.body).toBe(503);
      await app.engine.flush();
      // Every answered click is stored, and nothing else: a refused click was never kept.
      expect(await storedClicks(app)).toEqual([...answered].sort());
      expect(await app.store.db.selectFrom('tracker_leads').select('lead_id').execute()).toEqual([]);
    } finally {
      for (const app of apps.splice(0)) await app.close();
      execFileSync('umount', [journalDir]);
    }
  });
});
