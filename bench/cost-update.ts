// What a cost update over many clicks holds the event loop up for (not part of `npm run bench`; part (b)
// measures the same through clicks sent meanwhile, at 10M). `npx tsx bench/cost-update.ts [clicks]`
// (default 1,000,000) on SQLite, or on PostgreSQL with `postgres` after it (a database of its own in
// TEST_DATABASE_URL's server, dropped after): one campaign's clicks over 13 days, in quarter-hours of their own,
// spread over offers, countries, devices and var1 values, one in twenty with a bot verdict, written
// straight to the table; then its cost is set through the API, in process, while a timer that should
// fire every millisecond notes how late it fires. Prints the update's time and the longest waits.
// Node's flags (`--trace-gc`) go before the script: `npx tsx --trace-gc bench/cost-update.ts`.
// COST_UPDATE_ANALYZE=0: on PostgreSQL, the table is not analyzed after it is filled.
import { sql } from 'kysely';
import { inProcessApp } from './in-process-app.js';

const CLICKS = Number(process.argv[2] ?? 1_000_000);
const POSTGRES = process.argv[3] === 'postgres';
const DAYS = 13;
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'BR', 'IN', 'RU', 'ES', 'IT', 'CA'];
const DEVICES = ['desktop', 'mobile', 'tablet'];
const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge'];

const { app, headers, workspaceId, create, close } = await inProcessApp(
  POSTGRES ? 'postgres' : 'sqlite',
  'cost-update',
);
try {
  const source = await create('traffic-sources', { name: 'Source' });
  const flow = await create('tracker/flows', { name: 'Flow' });
  const campaign = await create('tracker/campaigns', {
    name: 'Campaign',
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
  });
  const first = Date.UTC(2026, 0, 1);
  const quarters = DAYS * 96;
  let written = 0;
  const started = performance.now();
  for (let start = 0; start < CLICKS; start += 1000) {
    const rows = [];
    for (let index = start; index < Math.min(CLICKS, start + 1000); index += 1) {
      // A click's quarter-hour, offer and country drawn from the index so that most clicks share none.
      const quarter = Math.floor((index / CLICKS) * quarters);
      const at = new Date(first + quarter * 900_000 + (index % 900) * 1000).toISOString();
      const var1 = `z${100 + (index % 300)}`;
      rows.push({
        click_id: `c${index}`,
        created_at: at,
        campaign_external_id: campaign.external_id,
        flow_external_id: flow.external_id,
        traffic_source_external_id: source.external_id,
        offer_external_id: `offer${index % 15}`,
        path_group_id: `g${index % 14}`,
        path_id: `p${index % 42}`,
        country: COUNTRIES[(index * 7) % COUNTRIES.length],
        device: DEVICES[index % DEVICES.length],
        browser: BROWSERS[(index * 3) % BROWSERS.length],
        workspace_id: workspaceId,
        visitor_id: `v${index}`,
        reason: 'matched',
        cost: 0.01,
        is_unique: 1,
        is_bot: index % 20 === 0 ? 1 : 0,
        var1,
        vars: JSON.stringify({ var1 }),
      });
    }
    await app.store.db
      .insertInto('tracker_clicks')
      .values(rows as never)
      .execute();
    written += rows.length;
  }
  // As a table in use is: its statistics known to the planner. COST_UPDATE_ANALYZE=0 leaves it as a table
  // just filled is (an import, a restore), before autovacuum's turn.
  if (POSTGRES && process.env.COST_UPDATE_ANALYZE !== '0') await sql`analyze tracker_clicks`.execute(app.store.db);
  console.log(
    `${written.toLocaleString('en')} clicks written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // A timer that should fire every millisecond: how late each firing is, while the update runs.
  const waits: number[] = [];
  let heap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    waits.push(now - last);
    last = now;
    if (waits.length % 100 === 0) heap = Math.max(heap, process.memoryUsage().heapUsed);
  }, 1);
  const updateStarted = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: `/api/tracker/campaigns/${campaign.external_id}/costs`,
    headers,
    payload: { start: '2026-01-01', end: '2026-01-31', timezone: 'UTC', amount: 12345.67, filter: {} },
  });
  const seconds = (performance.now() - updateStarted) / 1000;
  clearInterval(timer);
  waits.sort((a, b) => b - a);
  const at = (share: number) => waits[Math.floor(waits.length * share)] ?? 0;
  console.log(
    `cost update: ${response.statusCode} ${response.body.slice(0, 80)} in ${seconds.toFixed(1)} s; ` +
      `timer waits p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.01).toFixed(1)} ms, longest ` +
      waits
        .slice(0, 8)
        .map((wait) => wait.toFixed(0))
        .join(', ') +
      ` ms; the heap at most ${Math.round(heap / 1048576)} MB`,
  );
} finally {
  await close();
}
