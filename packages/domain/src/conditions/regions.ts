// The regions a `region` rule can name. country-region-data lists regions by country with
// English names; iso-3166 says which of its codes are real ISO 3166-2 codes and fills in the top-level
// subdivisions it lacks (England, Catalunya, Corse…), so rules use the codes the geo lookup reports.
// The data comes in through provideRegionData (region-data.ts), so a bundle can fetch it apart.
import type { allCountries } from 'country-region-data';
import type { iso31662 } from 'iso-3166';

type CountryRegionData = typeof allCountries;
type IsoSubdivisions = typeof iso31662;

export interface RegionOption {
  /** An ISO 3166-2 code (`US-CA`), or `CC:name` (see regionNameKey) for a region without one. */
  value: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  name: string;
  /** CLDR's English name where it differs from `name` ("Bavaria" for Bayern): found by search too. */
  english?: string;
}

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

/** A region name reduced for comparison: no case, diacritics, punctuation or kind words. */
function normalizeRegionName(name: string): string {
  const plain = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßøłđæœıþ]/g, (letter) => SPECIAL_LETTERS[letter] ?? letter)
    .replace(/['’`]/g, '');
  const words = plain.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  const kept = words.filter((word) => !KIND_WORDS.has(word)).map((word) => (word === 'st' ? 'saint' : word));
  // A name made only of kind words ("Capital District") keeps them rather than becoming empty.
  return (kept.length > 0 ? kept : words).join(' ');
}

/**
 * The value of a region without an ISO code: country, colon, the normalized name (`CK:aitutaki`). The
 * server makes the same value from its geo data's name, so a rule and a click meet on it.
 */
export function regionNameKey(country: string, name: string): string {
  return `${country.toUpperCase()}:${normalizeRegionName(name)}`;
}

/** Whether a region value is a `regionNameKey` rather than an ISO code. */
export const isRegionNameKey = (value: string) => value.includes(':');

/** ISO codes by `regionNameKey` of their ISO name; a key two codes share is left out. */
function isoCodesByName(iso31662: IsoSubdivisions): Map<string, string> {
  const codes = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const entry of iso31662) {
    const key = regionNameKey(entry.code.slice(0, 2), entry.name);
    if (codes.has(key) && codes.get(key) !== entry.code) ambiguous.add(key);
    codes.set(key, entry.code);
  }
  for (const key of ambiguous) codes.delete(key);
  return codes;
}

function buildRegions(allCountries: CountryRegionData, iso31662: IsoSubdivisions): RegionOption[] {
  const isoCodes = new Set(iso31662.map((entry) => entry.code));
  const isoByName = isoCodesByName(iso31662);
  const regions: RegionOption[] = [];
  const seen = new Set<string>();
  const add = (value: string, country: string, name: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    regions.push({ value, country, name });
  };
  for (const [, country, list] of allCountries) {
    for (const [name, shortCode] of list) {
      // The package writes a missing code as the text "undefined", and some of its codes are its own
      // (AF-LOW for ISO's AF-LOG): those regions take the ISO code of their name, or a name key.
      const code = `${country}-${shortCode}`;
      const key = regionNameKey(country, name);
      add(isoCodes.has(code) ? code : (isoByName.get(key) ?? key), country, name);
    }
  }
  // Top-level ISO subdivisions the package lacks (GB-ENG, ES-CT, FR-20R…), with their ISO names.
  for (const entry of iso31662) {
    if (entry.parent.length === 2) add(entry.code, entry.parent, entry.name);
  }
  return regions.sort((a, b) => a.country.localeCompare(b.country) || a.name.localeCompare(b.name));
}

/**
 * Every region a rule can name, by country then name: empty until region-data.ts has run (the domain's
 * index runs it; the dashboard's build loads it with the screens that name regions).
 */
export let REGIONS: readonly RegionOption[] = [];

let regionsByValue = new Map<string, RegionOption>();

/** Fills REGIONS and findRegion from the packages' data (region-data.ts calls it). */
export function provideRegionData(
  countries: CountryRegionData,
  subdivisions: IsoSubdivisions,
  englishNames: Readonly<Record<string, string>> = {},
): void {
  REGIONS = buildRegions(countries, subdivisions).map((region) => {
    const english = englishNames[region.value];
    return english ? { ...region, english } : region;
  });
  regionsByValue = new Map(REGIONS.map((region) => [region.value.toLowerCase(), region]));
}

/** The region a rule value stands for (any case; a `CC:name` value in any spelling its key accepts). */
export function findRegion(value: string): RegionOption | undefined {
  const trimmed = value.trim();
  const colon = trimmed.indexOf(':');
  const key = colon === 2 ? regionNameKey(trimmed.slice(0, 2), trimmed.slice(3)) : trimmed;
  return regionsByValue.get(key.toLowerCase());
}
