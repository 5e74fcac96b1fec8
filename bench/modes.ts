// BENCH_MODES=1 (part (a)): beside the 302 clicks, the `meta` redirect mode (a page instead of a
// Location header) and a lander server's `POST /v1/clicks` (a direct campaign's click with its token),
// on the same flow and the same 2,000 varied clicks, measured in turns with the 302 clicks by wrk on
// the server part (a) started. Prints req/s and latency of each; answers how many clicks they added.
import path from 'node:path';
import { type ClickRequest, clickRequests } from './click-flow.js';
import { api, BenchFailure, int, ms, table } from './support.js';
import { type LoadFigures, runWrk, writeWrkScript } from './wrk.js';

export const modesWanted = () => process.env.BENCH_MODES === '1';

interface ModesSetup {
  base: string;
  token: string;
  campaignExternalId: string;
  /** The 302 clicks' wrk script, as part (a) wrote it. */
  clickScript: string;
  dataDir: string;
  wrk: string;
  variants: number;
  rounds: number;
  durationS: number;
  options: { connections: number; threads: number; timeoutS: number };
  /** Called before each run: the Switchyard server is the one running (the baseline frozen). */
  beforeRun: () => void;
}

/** The same click as `request` (a GET on the campaign URL), as a lander server posts it to /v1/clicks. */
function serverClick(request: ClickRequest, campaign: string, clickToken: string): ClickRequest {
  const url = new URL(request.path, 'http://bench');
  const headers = request.headers;
  return {
    method: 'POST',
    path: '/v1/clicks',
    headers: { authorization: `Bearer ${clickToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      campaign,
      ip: headers['x-forwarded-for'],
      user_agent: headers['user-agent'],
      accept_language: headers['accept-language'],
      ...(headers.referer ? { referrer: headers.referer } : {}),
      ...(headers.cookie ? { cookie: headers.cookie } : {}),
      query: Object.fromEntries(url.searchParams),
    }),
  };
}

/** A copy of the bench's campaign with `fields` changed; its external id. */
async function campaignLike(base: string, token: string, id: string, fields: Record<string, unknown>) {
  const {
    external_id: _id,
    status: _s,
    created_at: _c,
    updated_at: _u,
    ...body
  } = await api(base, token, 'GET', `/api/tracker/campaigns/${id}`);
  const made = await api(base, token, 'POST', '/api/tracker/campaigns', {
    ...body,
    name: `${String(body.name)} (${String(fields.redirect_mode ?? fields.type)})`,
    ...fields,
  });
  return String(made.external_id);
}

export async function modesBench(setup: ModesSetup): Promise<{ answered: number; runs: number }> {
  const { base, token } = setup;
  const meta = await campaignLike(base, token, setup.campaignExternalId, { redirect_mode: 'meta' });
  const direct = await campaignLike(base, token, setup.campaignExternalId, { type: 'direct' });
  const clickToken = String((await api(base, token, 'POST', `/api/tracker/campaigns/${direct}/click-token`)).token);

  const metaRequests = clickRequests(meta, setup.variants);
  const serverRequests = clickRequests(direct, setup.variants).map((request) =>
    serverClick(request, direct, clickToken),
  );
  // Each sent once first: meta answers its page, /v1/clicks the click's JSON.
  for (const [request, wanted] of [
    [metaRequests[0]!, 'http-equiv="refresh"'],
    [serverRequests[0]!, '"click_id"'],
  ] as const) {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body } : {}),
      redirect: 'manual',
    });
    const text = await response.text();
    if (response.status !== 200 || !text.includes(wanted)) {
      throw new BenchFailure(`${request.method} ${request.path} answered ${response.status}: ${text.slice(0, 300)}`);
    }
  }
  const scripts = { meta: path.join(setup.dataDir, 'meta.lua'), server: path.join(setup.dataDir, 'v1-clicks.lua') };
  await writeWrkScript(scripts.meta, metaRequests);
  await writeWrkScript(scripts.server, serverRequests);

  const runs = {
    '302 (GET /c/…)': {
      url: `${base}/c/${setup.campaignExternalId}`,
      script: setup.clickScript,
      results: [] as LoadFigures[],
    },
    'meta (GET /c/…)': { url: `${base}/c/${meta}`, script: scripts.meta, results: [] as LoadFigures[] },
    'POST /v1/clicks': { url: `${base}/v1/clicks`, script: scripts.server, results: [] as LoadFigures[] },
  };
  let answered = 0;
  let count = 0;
  console.log(
    `\nBENCH_MODES: 302, meta and POST /v1/clicks in turns, ${setup.rounds} rounds of ${setup.durationS} s each`,
  );
  for (let round = 1; round <= setup.rounds; round += 1) {
    const parts: string[] = [];
    for (const [label, run] of Object.entries(runs)) {
      setup.beforeRun();
      const figures = await runWrk(setup.wrk, run.url, run.script, { ...setup.options, durationS: setup.durationS });
      run.results.push(figures);
      answered += figures.requests - figures.statusOther;
      count += 1;
      parts.push(`${label} ${int(figures.rps)}/s`);
    }
    console.log(`round ${round}: ${parts.join(', ')}`);
  }
  const rows = Object.entries(runs).map(([label, run]) => {
    const requests = run.results.reduce((sum, figures) => sum + figures.requests, 0);
    const seconds = run.results.reduce((sum, figures) => sum + figures.durationS, 0);
    const worst = (pick: (figures: LoadFigures) => number) => Math.max(...run.results.map(pick));
    return [
      label,
      int(requests),
      int(requests / seconds),
      ms(worst((figures) => figures.p50)),
      ms(worst((figures) => figures.p99)),
      int(run.results.reduce((sum, figures) => sum + figures.errors + figures.timeouts, 0)),
      int(run.results.reduce((sum, figures) => sum + figures.statusOther, 0)),
    ];
  });
  console.log(
    table(['run', 'requests', 'req/s', 'p50 (worst round)', 'p99 (worst round)', 'errors', 'status ≥ 400'], rows),
  );
  // The 302 rounds' clicks are counted by part (a) itself only for its own rounds: all of these count here.
  return { answered, runs: count };
}
