// How long a CSV cost import of N lines takes to answer, on SQLite and PostgreSQL.
// `npx tsx bench/cost-import.ts [lines] [sqlite|postgres|both] [clicks per line]` (default 3000, both, 1).
// Ten campaigns, each line one (day, campaign, var1 value) with its clicks, written straight to the table;
// the import goes through the API as an operator's would. Prints one line per database: lines, clicks,
// seconds to answer.
import { inProcessApp } from './in-process-app.js';

const LINES = Number(process.argv[2] ?? 3000);
const KINDS = process.argv[3] && process.argv[3] !== 'both' ? [process.argv[3]] : ['sqlite', 'postgres'];
const CLICKS_PER_LINE = Number(process.argv[4] ?? 1);
const CAMPAIGNS = 10;
const VALUES = 100;

async function run(kind: string): Promise<void> {
  const { app, headers, workspaceId, create, close } = await inProcessApp(
    kind === 'postgres' ? 'postgres' : 'sqlite',
    'cost-import',
  );
  try {
    const source = await create('traffic-sources', { name: 'Source' });
    const flow = await create('tracker/flows', { name: 'Flow' });
    const campaigns: string[] = [];
    for (let index = 0; index < CAMPAIGNS; index += 1) {
      const campaign = await create('tracker/campaigns', {
        name: `Campaign ${index}`,
        traffic_source_external_id: source.external_id,
        flow_external_id: flow.external_id,
      });
      campaigns.push(campaign.external_id);
    }
    const days = Math.ceil(LINES / CAMPAIGNS / VALUES);
    const lines: string[] = ['date,campaign,var_name,var_value,amount'];
    const clicks: object[] = [];
    for (let line = 0; line < LINES; line += 1) {
      const campaign = campaigns[line % CAMPAIGNS]!;
      const value = `zone-${Math.floor(line / CAMPAIGNS) % VALUES}`;
      const day = new Date(Date.UTC(2026, 0, 1 + Math.floor(line / CAMPAIGNS / VALUES))).toISOString().slice(0, 10);
      lines.push(`${day},${campaign},var1,${value},${(line % 7) + 0.5}`);
      for (let copy = 0; copy < CLICKS_PER_LINE; copy += 1)
        clicks.push({
          click_id: `c${line}-${copy}`,
          created_at: `${day}T12:00:00.000Z`,
          campaign_external_id: campaign,
          workspace_id: workspaceId,
          visitor_id: `v${line}`,
          reason: 'matched',
          cost: 0.1,
          is_unique: 1,
          is_bot: 0,
          var1: value,
          vars: JSON.stringify({ var1: value }),
        });
    }
    for (let start = 0; start < clicks.length; start += 1000) {
      await app.store.db
        .insertInto('tracker_clicks')
        .values(clicks.slice(start, start + 1000) as never)
        .execute();
    }
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/tracker/campaigns/costs/import',
      headers: { ...headers, 'content-type': 'text/csv' },
      payload: lines.join('\n'),
    });
    const seconds = (performance.now() - started) / 1000;
    const answer = response.json<{ updated?: number; refused?: number; message?: string }>();
    console.log(
      `${kind}: ${LINES.toLocaleString('en')} lines over ${days} days, ${clicks.length.toLocaleString('en')} clicks: ` +
        `${response.statusCode} in ${seconds.toFixed(2)} s (updated ${answer.updated}, refused ${answer.refused}${answer.message ? `, ${answer.message}` : ''})`,
    );
  } finally {
    await close();
  }
}

for (const kind of KINDS) await run(kind);
