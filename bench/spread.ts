// A realistic spread of visitors for the click bench: 5,000 user agents drawn from a Zipf distribution
// (a few browsers carry most of the traffic, a long tail of versions and devices the rest) and 1M
// addresses drawn evenly (most visitors of a campaign come once). The bench's own 14 agents and 20
// addresses flatter any cache: every lookup after the first is a hit. This spread gives the caches what
// a campaign's traffic gives them. Deterministic: every run, and wrk's Lua and autocannon alike, send
// the same visitors in the same order for the same seed.

export const SPREAD_AGENTS = 5000;
export const SPREAD_ADDRESSES = 1_000_000;
/** Zipf's exponent: 1 is the classic one (the k-th most common agent is k times rarer than the first). */
const ZIPF_S = 1;

/** Deterministic pseudo-random numbers (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ANDROID_MODELS = [
  'SM-S911B',
  'SM-A546B',
  'SM-G991B',
  'Pixel 7',
  'Pixel 8',
  'Redmi Note 12',
  'M2101K6G',
  'CPH2449',
  'V2202',
  'moto g(30)',
  'TECNO KI5k',
  'Infinix X6816',
  'SM-A135F',
  '2201117TG',
  'RMX3630',
  'K',
];
const WINDOWS = ['Windows NT 10.0; Win64; x64', 'Windows NT 6.1; Win64; x64', 'Windows NT 10.0; WOW64'];
const MAC = ['Macintosh; Intel Mac OS X 10_15_7', 'Macintosh; Intel Mac OS X 14_4_1', 'Macintosh; Intel Mac OS X 13_6'];
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'curl/8.5.0',
  'python-requests/2.31.0',
];

/**
 * 5,000 different user agents, the commonest first: current Chrome on Android and Windows, then Safari on
 * iPhone, then older versions, other browsers, in-app browsers and a few bots, as an ad network sends them.
 */
export function spreadAgents(count = SPREAD_AGENTS): string[] {
  const random = seeded(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const agents = new Set<string>();
  const makers: (() => string)[] = [
    () => {
      const chrome = 100 + Math.floor(random() * 32);
      return `Mozilla/5.0 (Linux; Android ${9 + Math.floor(random() * 6)}; ${pick(ANDROID_MODELS)}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${chrome}.0.${5000 + Math.floor(random() * 1500)}.${Math.floor(random() * 200)} Mobile Safari/537.36`;
    },
    () =>
      `Mozilla/5.0 (${pick(WINDOWS)}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + Math.floor(random() * 32)}.0.0.0 Safari/537.36`,
    () => {
      const ios = `${15 + Math.floor(random() * 4)}_${Math.floor(random() * 7)}`;
      return `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${ios.split('_')[0]}.${ios.split('_')[1]} Mobile/15E148 Safari/604.1`;
    },
    () =>
      `Mozilla/5.0 (${pick(MAC)}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${random() < 0.5 ? 4 : 3} Safari/605.1.15`,
    () =>
      `Mozilla/5.0 (${pick(WINDOWS)}; rv:${110 + Math.floor(random() * 20)}.0) Gecko/20100101 Firefox/${110 + Math.floor(random() * 20)}.0`,
    () =>
      `Mozilla/5.0 (Linux; Android ${10 + Math.floor(random() * 5)}; ${pick(ANDROID_MODELS)}) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/${20 + Math.floor(random() * 6)}.0 Chrome/${110 + Math.floor(random() * 15)}.0.0.0 Mobile Safari/537.36`,
    () =>
      `Mozilla/5.0 (Linux; Android ${10 + Math.floor(random() * 5)}; ${pick(ANDROID_MODELS)} Build/TP1A.${220000 + Math.floor(random() * 9999)}; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${110 + Math.floor(random() * 20)}.0.0.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/${400 + Math.floor(random() * 60)}.0.0.${Math.floor(random() * 50)}.${Math.floor(random() * 200)};]`,
    () =>
      `Mozilla/5.0 (iPad; CPU OS 17_${Math.floor(random() * 5)} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${Math.floor(random() * 5)} Mobile/15E148 Safari/604.1`,
    () =>
      `Mozilla/5.0 (${pick(WINDOWS)}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${110 + Math.floor(random() * 20)}.0.0.0 Safari/537.36 Edg/${110 + Math.floor(random() * 20)}.0.${Math.floor(random() * 3000)}.${Math.floor(random() * 100)}`,
  ];
  for (const bot of BOTS) agents.add(bot);
  while (agents.size < count) agents.add(makers[Math.floor(random() ** 2 * makers.length)]!());
  // The commonest first (Zipf ranks): a browser, not a bot, leads; the bots sit in the tail.
  const list = [...agents];
  const bots = list.splice(0, BOTS.length);
  list.splice(200, 0, ...bots);
  return list;
}

/** Zipf's cumulative distribution over `count` ranks, for drawing a rank with one uniform number. */
export function zipfCumulative(count = SPREAD_AGENTS, s = ZIPF_S): Float64Array {
  const weights = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank += 1) {
    weights[rank] = 1 / (rank + 1) ** s;
    total += weights[rank]!;
  }
  let sum = 0;
  for (let rank = 0; rank < count; rank += 1) {
    sum += weights[rank]! / total;
    weights[rank] = sum;
  }
  return weights;
}

/** The rank whose cumulative share first reaches `u` (binary search). */
export function drawRank(cumulative: Float64Array, u: number): number {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (cumulative[middle]! < u) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The k-th of the 1M addresses: k spread over the whole IPv4 space by a multiplicative hash (odd, so
 * one-to-one), so they fall in every country's ranges, a few in private or reserved ones (no country),
 * as real traffic has a few. The same formula is in the wrk script (spreadLua).
 */
export function spreadAddress(k: number): string {
  const value = Math.imul(k + 1, 0x9e3779b1) >>> 0;
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** Draws visitors of the spread: an agent by Zipf rank, an address evenly of the 1M. */
export function spreadVisitors(seed = 7): () => { userAgent: string; address: string } {
  const agents = spreadAgents();
  const cumulative = zipfCumulative();
  const random = seeded(seed);
  return () => ({
    userAgent: agents[drawRank(cumulative, random())]!,
    address: spreadAddress(Math.floor(random() * SPREAD_ADDRESSES)),
  });
}

/**
 * The Lua of a wrk script that replaces each request's user agent and address with a visitor of the
 * spread (wrk's own math.random, seeded per thread; the agents' table and Zipf's cumulative shares are
 * written into the script).
 */
export function spreadLua(): string {
  const agents = spreadAgents();
  const cumulative = zipfCumulative();
  const quote = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `
local spread_agents = {${agents.map(quote).join(',')}}
local spread_cumulative = {${Array.from(cumulative, (share) => share.toFixed(9)).join(',')}}
local function spread_rank(u)
  local low, high = 1, #spread_cumulative
  while low < high do
    local middle = math.floor((low + high) / 2)
    if spread_cumulative[middle] < u then low = middle + 1 else high = middle end
  end
  return low
end
local function spread_address()
  local k = math.random(0, ${SPREAD_ADDRESSES - 1})
  -- (k + 1) * 0x9e3779b1 mod 2^32, in pieces that stay exact in a double
  local a = (k + 1) % 65536
  local b = math.floor((k + 1) / 65536)
  local low = a * 0x79b1
  local value = (low + ((a * 0x9e37 + b * 0x79b1) % 65536) * 65536) % 4294967296
  return string.format("%d.%d.%d.%d", math.floor(value / 16777216), math.floor(value / 65536) % 256,
    math.floor(value / 256) % 256, value % 256)
end
function spread_visitor()
  return spread_agents[spread_rank(math.random())], spread_address()
end
`;
}
