import type { Reader, Response } from 'maxmind';
import { ipv4Text } from './addresses.js';
import { NO_RECORD, walkIpv4Tree } from './ipv4-tree.js';
import type { BuiltTable, TableData } from './table-file.js';

// DB-IP's IPv4 city records as sorted ranges, each the index of a place (its country, region name and
// city, as the file spells them). A click reads two small arrays instead of walking the file's tree:
// visitors come from everywhere, so a cache of the tree's answers misses on most of them, and the
// tree's 32 nodes a lookup were 32 reads from memory no processor cache held.

/** A place as the file names it; index 0 is "no record". */
export type RawPlace = [country: string, regionName: string, city: string];

/** The fields of a DB-IP city record that a place takes. */
export interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
}

/** The ranges of a table in address order: the first address of each (the first is 0), and its place. */
export interface PlaceRanges {
  starts: Uint32Array;
  places: Uint32Array;
}

/** Builds the table of an IPv4 file: ranges merged where neighbours share a place. Null for another file. */
export function buildPlaceTable(reader: Reader<Response>, db: Buffer): BuiltTable | null {
  const starts: number[] = [];
  const places: number[] = [];
  const texts: string[] = ['', '', ''];
  const placeIndex = new Map<string, number>([['\u0000\u0000', 0]]);
  const placeOfPointer = new Map<number, number>([[NO_RECORD, 0]]);
  const walked = walkIpv4Tree(reader, db, (start, pointer) => {
    let place = placeOfPointer.get(pointer);
    if (place === undefined) {
      // Each record is read once, through an address it covers, by the reader's own decoder.
      const record = (reader.get(ipv4Text(start)) ?? {}) as CityRecord;
      const fields: RawPlace = [record.country_code ?? '', record.state1 ?? '', record.city ?? ''];
      const key = fields.join('\u0000');
      place = placeIndex.get(key);
      if (place === undefined) {
        place = placeIndex.size;
        placeIndex.set(key, place);
        texts.push(...fields);
      }
      placeOfPointer.set(pointer, place);
    }
    if (places.length > 0 && places[places.length - 1] === place) return;
    starts.push(start);
    places.push(place);
  });
  if (!walked) return null;
  return { words: [Uint32Array.from(starts), Uint32Array.from(places)], texts };
}

/**
 * The ranges of a table and the place of an index (named by `name`, each once and only when a click
 * first needs it: most of a table's 168,000 places are never asked for), or null when the table's parts
 * do not fit together.
 */
export function readPlaceTable<Place>(
  data: TableData,
  name: (place: RawPlace) => Place,
): { ranges: PlaceRanges; placeAt: (index: number) => Place } | null {
  const [starts, places] = data.words;
  const texts = data.texts;
  if (!starts || !places || starts.length !== places.length || starts.length === 0 || starts[0] !== 0) return null;
  if (texts.length % 3 !== 0) return null;
  const count = texts.length / 3;
  for (let index = 0; index < places.length; index += 1) if (places[index]! >= count) return null;
  const named: (Place | undefined)[] = new Array(count);
  const placeAt = (index: number): Place =>
    (named[index] ??= name([texts.at(index * 3) ?? '', texts.at(index * 3 + 1) ?? '', texts.at(index * 3 + 2) ?? '']));
  return { ranges: { starts, places }, placeAt };
}
