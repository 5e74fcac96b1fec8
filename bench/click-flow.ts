// The realistic tracker flow the click benchmark runs against: a traffic source with
// parameters, landers and offers, a flow of 14 path groups whose conditions test the bot verdict,
// address, network, country, device, platform, browser, vars and language, 3 paths each,
// and a tracker campaign; plus the varied clicks sent to it.

export type Body = Record<string, unknown>;

export interface Api {
  post(path: string, body: Body): Promise<Body>;
}

type Node = Record<string, unknown>;
const inCondition = (Var: string, Values: string[], Operation: 'IN' | 'NOT IN' = 'IN'): Node => ({
  type: 'InCondition',
  data: { Var, Operation, Values },
});
const varsCondition = (key: string, Operation: string, Value: string[]): Node => ({
  type: 'VarsCondition',
  data: { Var: 'vars', Value: { Var: key, Operation, Value } },
});
const and = (...Conditions: Node[]): Node => ({ type: 'AndCondition', data: { Conditions } });
const or = (...Conditions: Node[]): Node => ({ type: 'OrCondition', data: { Conditions } });
const not = (Condition: Node): Node => ({ type: 'NotCondition', data: { Condition } });
const ALL: Node = { type: 'AllCondition' };
const equalCondition = (Var: string, Value: string): Node => ({ type: 'EqualCondition', data: { Var, Value } });

/** Path group conditions in priority order; the last catches everyone, so every click is routed. */
const GROUP_CONDITIONS: [string, Node][] = [
  // Bots first, to a safe page; then an address list and a list of networks every click passes.
  ['Bots to the safe page', equalCondition('isBot', 'true')],
  ['Office and partners', inCondition('ip', ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'])],
  ['Cloud networks', inCondition('asn', ['16509', '14061', 'AS24940'])],
  [
    'GB iPhone',
    and(inCondition('countryCode', ['GB', 'IE']), inCondition('device', ['mobile']), inCondition('platform', ['ios'])),
  ],
  [
    'US desktop Chrome',
    and(
      inCondition('countryCode', ['US', 'CA']),
      inCondition('device', ['desktop']),
      inCondition('browser', ['Chrome']),
    ),
  ],
  ['DACH Android', and(inCondition('countryCode', ['DE', 'AT', 'CH']), inCondition('platform', ['android']))],
  [
    'FR/BE premium zones',
    and(inCondition('countryCode', ['FR', 'BE']), varsCondition('var1', 'IN', ['z100', 'z101', 'z102', 'z103'])),
  ],
  [
    'Firefox outside CN',
    and(inCondition('browser', ['Firefox', 'Firefox Mobile']), not(inCondition('countryCode', ['CN']))),
  ],
  [
    'CIS push',
    and(inCondition('countryCode', ['RU', 'UA', 'BY', 'KZ']), varsCondition('subaff', 'starts with', ['push'])),
  ],
  ['Tablets', inCondition('device', ['tablet'])],
  ['Asia or Mac', or(inCondition('countryCode', ['JP', 'KR', 'CN', 'IN']), inCondition('platform', ['mac']))],
  [
    'Facebook mobile',
    and(varsCondition('utm_source', 'contains', ['fb', 'facebook']), inCondition('device', ['mobile'])),
  ],
  ['Spanish or Portuguese', inCondition('language', ['es', 'pt'])],
  ['Everyone else', ALL],
];

export interface CreatedFlow {
  campaignExternalId: string;
  flowExternalId: string;
  trafficSourceExternalId: string;
  groups: number;
  paths: number;
  offers: number;
  landers: number;
  /** The flow's routing, for generating events that follow it (part b). */
  pathGroups: { id: string; paths: { id: string; offers: string[]; landers: string[] }[] }[];
}

/**
 * Creates the records through the dashboard API, as an operator would. `dailyCap`: every offer capped that high (never reached), so that each click takes a cap unit: what
 * counting caps costs (in the primary process's, with workers, cluster/primary.ts). `optimize`: every
 * path group tunes its weights.
 */
export async function createClickFlow(
  api: Api,
  options: { dailyCap?: number; optimize?: boolean } = {},
): Promise<CreatedFlow> {
  const source = await api.post('/api/traffic-sources', {
    name: 'Bench push network',
    parameters: [
      { name: 'Zone', ts_parameter: 'zone', ts_token: '{zone}', internal_token: 'var1', enabled: true },
      { name: 'Click id', ts_parameter: 'cid', ts_token: '{click_id}', internal_token: 'var2', enabled: true },
      { name: 'Creative', ts_parameter: 'creative', ts_token: '{creative}', internal_token: 'var3', enabled: true },
      { name: 'Bid', ts_parameter: 'bid', ts_token: '{bid}', internal_token: 'var4', enabled: true },
    ],
    cost_model: 'CPC',
    default_cost: 0.01,
  });

  const offers: string[] = [];
  for (let index = 1; index <= 15; index += 1) {
    const offer = await api.post('/api/tracker/offers', {
      name: `Bench offer ${index}`,
      url: `https://offer${index}.example/go?c={clickid}&z={var1}&cc={country}&ext={external_id}&s={subaff}&l={lander_id}`,
      ...(options.dailyCap ? { daily_cap: options.dailyCap } : {}),
    });
    offers.push(String(offer.external_id));
  }
  const landers: string[] = [];
  for (let index = 1; index <= 6; index += 1) {
    const lander = await api.post('/api/tracker/landers', {
      name: `Bench lander ${index}`,
      url: `https://lander${index}.example/?c={clickid}&o={offer_id}&z={var1}&u={utm_source}`,
    });
    landers.push(String(lander.external_id));
  }

  let paths = 0;
  const pathGroups = GROUP_CONDITIONS.map(([name, condition], g) => ({
    id: `g${g + 1}`,
    name,
    condition: JSON.stringify(condition),
    // Weights that tune themselves, moved after the first click: routing then reads live weights.
    ...(options.optimize ? { optimize: 'on', optimize_target: 'paths', optimize_min_clicks: 1 } : {}),
    paths: [0, 1, 2].map((p) => {
      paths += 1;
      const offerAt = (k: number) => offers[(g * 3 + p + k) % offers.length]!;
      const landerAt = (k: number) => landers[(g + p + k) % landers.length]!;
      // Row ids unique in the flow (the server refuses two rows of one kind with one id).
      const pathId = `g${g + 1}p${p + 1}`;
      return {
        id: pathId,
        name: `${name} path ${p + 1}`,
        weight: [50, 30, 20][p],
        offers: [
          { id: `${pathId}o1`, offer_external_id: offerAt(0), weight: 70 },
          { id: `${pathId}o2`, offer_external_id: offerAt(1), weight: 30 },
        ],
        // The third path of each group sends visitors straight to the offer.
        landers:
          p === 2
            ? []
            : [
                { id: `${pathId}l1`, lander_external_id: landerAt(0), weight: 60 },
                { id: `${pathId}l2`, lander_external_id: landerAt(1), weight: 40 },
              ],
      };
    }),
  }));
  const flow = await api.post('/api/tracker/flows', { name: 'Bench flow', path_groups: pathGroups });

  const campaign = await api.post('/api/tracker/campaigns', {
    name: 'Bench campaign',
    traffic_source_external_id: source.external_id,
    flow_external_id: flow.external_id,
    cost_model: 'CPC',
    cost: 0.02,
    // The bench cycles a pool of a few thousand requests over 20 addresses: each would pass 60 clicks a
    // minute within a second. The limit is counted for every click but never reached.
    bot_clicks_per_minute: 100_000,
  });
  return {
    campaignExternalId: String(campaign.external_id),
    flowExternalId: String(flow.external_id),
    trafficSourceExternalId: String(source.external_id),
    pathGroups: pathGroups.map((group) => ({
      id: group.id,
      paths: group.paths.map((path) => ({
        id: path.id,
        offers: path.offers.map((offer) => offer.offer_external_id),
        landers: path.landers.map((lander) => lander.lander_external_id),
      })),
    })),
    groups: pathGroups.length,
    paths,
    offers: offers.length,
    landers: landers.length,
  };
}

/**
 * Part (a)'s flow with `count` campaigns on it (the first the flow's own, the others costing 1.4 ¢,
 * 2.1 ¢… a click): the configuration the report benches generate their events for.
 */
export async function createReportCampaigns(
  api: Api,
  count: number,
): Promise<{ flow: CreatedFlow; campaigns: { externalId: string; cost: number }[] }> {
  const flow = await createClickFlow(api);
  const campaigns = [{ externalId: flow.campaignExternalId, cost: 0.02 }];
  for (let index = 2; index <= count; index += 1) {
    const cost = Math.round(index * 0.7) / 100;
    const campaign = await api.post('/api/tracker/campaigns', {
      name: `Bench campaign ${index}`,
      traffic_source_external_id: flow.trafficSourceExternalId,
      flow_external_id: flow.flowExternalId,
      cost_model: 'CPC',
      cost,
    });
    campaigns.push({ externalId: String(campaign.external_id), cost });
  }
  return { flow, campaigns };
}

// Visitors: addresses of access networks in several countries (the server trusts X-Forwarded-For, as
// behind a load balancer), one of a hosting provider, and user agents of several devices, platforms
// and browsers, including a few bots.
export const IPS = [
  '81.2.69.160', // GB
  '212.58.244.1', // GB
  '89.101.0.1', // IE (DB-IP places 185.60.216.35, Facebook's anycast, in Brazil)
  '73.162.0.1', // US
  '24.5.0.1', // US
  '24.48.0.1', // CA
  '91.64.0.1', // DE
  '217.160.0.1', // DE, a hosting provider's network (a datacenter bot)
  '90.0.0.1', // FR
  '80.12.0.1', // FR
  '84.17.0.1', // RU
  '95.24.0.1', // RU
  '126.0.0.1', // JP
  '101.0.0.1', // CN
  '14.139.0.1', // IN
  '200.160.2.3', // BR
  '203.0.178.191', // AU
  '41.0.0.1', // ZA
  '193.0.6.139', // NL
  '10.1.2.3', // private: no country
];

export const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0',
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.67',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 [FBAN/EMA;FBLC/en_US;FBAV/400.0.0.0]',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'curl/8.5.0',
];

const LANGUAGES = ['en-US,en;q=0.9', 'es-ES,es;q=0.9', 'pt-BR,pt;q=0.8,en;q=0.5', 'de-DE,de;q=0.9', 'fr-FR', 'ru', '*'];

const SUBAFFS = ['push-1', 'push-22', 'pop-3', 'native-7', 'push-9', ''];
const UTM_SOURCES = ['fb', 'facebook_ads', 'google', 'tiktok', 'newsletter', ''];

/** Deterministic pseudo-random numbers (mulberry32), so every run sends the same clicks. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface ClickRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A POST's body (BENCH_MODES: `POST /v1/clicks`). */
  body?: string;
}

/**
 * `count` different clicks on the campaign URL: traffic-source parameters, subaff and utm values, a
 * referrer for most, and a returning visitor's cookies for about a quarter.
 */
export function clickRequests(campaignExternalId: string, count: number, seed = 5): ClickRequest[] {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const requests: ClickRequest[] = [];
  for (let index = 0; index < count; index += 1) {
    const query = new URLSearchParams();
    query.set('zone', `z${100 + Math.floor(random() * 12)}`);
    query.set('cid', `ts${index}x${Math.floor(random() * 1e9).toString(36)}`);
    query.set('creative', `cr${Math.floor(random() * 40)}`);
    query.set('bid', (0.001 + random() * 0.05).toFixed(4));
    const subaff = pick(SUBAFFS);
    if (subaff) query.set('subaff', subaff);
    const utmSource = pick(UTM_SOURCES);
    if (utmSource) {
      query.set('utm_source', utmSource);
      query.set('utm_medium', 'cpc');
      query.set('utm_campaign', `spring-${Math.floor(random() * 5)}`);
    }
    const headers: Record<string, string> = {
      'user-agent': pick(USER_AGENTS),
      'x-forwarded-for': pick(IPS),
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'accept-language': pick(LANGUAGES),
    };
    if (random() < 0.8) headers.referer = `https://publisher${Math.floor(random() * 30)}.example/article/${index}`;
    if (random() < 0.25) {
      const visitor = `bv${index.toString(36).padStart(6, '0')}${Math.floor(random() * 1e12).toString(36)}`.padEnd(
        22,
        'x',
      );
      headers.cookie = `sy_vid=${visitor.slice(0, 22)}; sy_seen=1`;
    }
    requests.push({ method: 'GET', path: `/c/${campaignExternalId}?${query.toString()}`, headers });
  }
  return requests;
}
