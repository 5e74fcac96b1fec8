import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ipv4RangeSearch, NONE, readAddress, V4, V6 } from './addresses.js';
import { loadTableFile, type TableData } from './table-file.js';

// ASN and ISP (the AS organisation's name) of a visitor from @ip-location-db/asn: RouteViews, the five
// RIRs and DB-IP's ASN Lite merged, CC BY 4.0. The package ships 63 MB of CSV; parsing it takes seconds,
// so it is turned once into a file of sorted ranges in the cache directory (table-file.ts).

export interface Network {
  asn: number | undefined;
  isp: string | undefined;
}

/** Ranges sorted by start, inclusive ends; IPv6 keyed by its upper 64 bits as (high, low) word pairs. */
interface Table {
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Asn: Uint32Array;
  v4Name: Uint32Array;
  v6Start: Uint32Array;
  v6End: Uint32Array;
  v6Asn: Uint32Array;
  v6Name: Uint32Array;
  names: string[];
  /** The index of the IPv4 range an address may fall in (the last starting at or before it), or -1. */
  v4Search: (address: number) => number;
  /** What the cache file gave, so that loading the same file again changes nothing. */
  data: TableData;
}

/** What the cache file holds of a table. */
type TableArrays = Omit<Table, 'v4Search' | 'data'>;

const require = createRequire(import.meta.url);
/** The layout of the cache file; a new layout is a new name, so the old file is removed, not "damaged". */
const LAYOUT = 3;

let table: Table | null = null;

function packageFolder(): string {
  return path.dirname(require.resolve('@ip-location-db/asn/package.json'));
}

/**
 * Makes networkOfIp answer: reads `<cacheDir>/asn-<package version>-<layout>.bin`, or builds it from the
 * package's CSV when it is missing or damaged. Call once at start, before clicks are answered.
 */
export async function loadNetworks(cacheDir: string, log: (message: string) => void = () => {}): Promise<void> {
  const folder = packageFolder();
  const version = (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;
  const data = await loadTableFile(
    cacheDir,
    {
      label: 'ASN cache',
      magic: 'SYASN\u0003\n\n',
      name: `asn-${version}-${LAYOUT}.bin`,
      stale: /^asn-.*\.bin$/,
      build: async () => {
        const built = await buildTable(folder);
        return { words: sections(built), texts: built.names };
      },
    },
    log,
  );
  if (table?.data === data) return;
  const word = (index: number) => data.words[index] ?? new Uint32Array(0);
  table = {
    v4Start: word(0),
    v4End: word(1),
    v4Asn: word(2),
    v4Name: word(3),
    v6Start: word(4),
    v6End: word(5),
    v6Asn: word(6),
    v6Name: word(7),
    names: Array.from({ length: data.texts.length }, (_, index) => data.texts.at(index) ?? ''),
    v4Search: ipv4RangeSearch(word(0)),
    data,
  };
}

/** One CSV line: start, end, ASN, then the organisation, quoted when it holds a comma. */
function splitLine(line: string): [string, string, number, string] | null {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (first < 0 || second < 0 || third < 0) return null;
  const asn = Number(line.slice(second + 1, third));
  if (!Number.isInteger(asn) || asn <= 0 || asn > 0xffffffff) return null;
  let name = line.slice(third + 1);
  if (name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1).replaceAll('""', '"');
  return [line.slice(0, first), line.slice(first + 1, second), asn, name];
}

async function* lines(file: string): AsyncGenerator<string> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of reader) if (line) yield line;
}

async function buildTable(folder: string): Promise<TableArrays> {
  const names: string[] = [''];
  const nameIndex = new Map<string, number>([['', 0]]);
  const indexOf = (name: string): number => {
    let index = nameIndex.get(name);
    if (index === undefined) {
      index = names.length;
      names.push(name);
      nameIndex.set(name, index);
    }
    return index;
  };

  const v4: number[] = []; // start, end, asn, name, repeated
  for await (const line of lines(path.join(folder, 'asn-ipv4-num.csv'))) {
    const fields = splitLine(line);
    if (!fields) continue;
    const start = Number(fields[0]);
    const end = Number(fields[1]);
    if (!(start >= 0 && end >= start && end <= 0xffffffff)) continue;
    const name = indexOf(fields[3]);
    const last = v4.length - 4;
    // Neighbouring ranges of one network become one, a good part of the file.
    if (last >= 0 && v4[last + 1]! + 1 === start && v4[last + 2]! === fields[2] && v4[last + 3]! === name) {
      v4[last + 1] = end;
    } else {
      v4.push(start, end, fields[2], name);
    }
  }

  const v6: number[] = []; // start high, start low, end high, end low, asn, name, repeated
  const words = new Uint32Array(4);
  for await (const line of lines(path.join(folder, 'asn-ipv6.csv'))) {
    const fields = splitLine(line);
    if (!fields || readAddress(fields[0], words) !== V6) continue;
    const startHigh = words[0]!;
    const startLow = words[1]!;
    if (readAddress(fields[1], words) !== V6) continue;
    v6.push(startHigh, startLow, words[0]!, words[1]!, fields[2], indexOf(fields[3]));
  }

  const v4Count = v4.length / 4;
  const v6Count = v6.length / 6;
  const result: TableArrays = {
    v4Start: new Uint32Array(v4Count),
    v4End: new Uint32Array(v4Count),
    v4Asn: new Uint32Array(v4Count),
    v4Name: new Uint32Array(v4Count),
    v6Start: new Uint32Array(v6Count * 2),
    v6End: new Uint32Array(v6Count * 2),
    v6Asn: new Uint32Array(v6Count),
    v6Name: new Uint32Array(v6Count),
    names,
  };
  // The package's files are in address order; sorting an index keeps that true if one ever is not.
  const order4 = Array.from({ length: v4Count }, (_, index) => index).sort((a, b) => v4[a * 4]! - v4[b * 4]!);
  order4.forEach((from, to) => {
    result.v4Start[to] = v4[from * 4]!;
    result.v4End[to] = v4[from * 4 + 1]!;
    result.v4Asn[to] = v4[from * 4 + 2]!;
    result.v4Name[to] = v4[from * 4 + 3]!;
  });
  const order6 = Array.from({ length: v6Count }, (_, index) => index).sort(
    (a, b) => v6[a * 6]! - v6[b * 6]! || v6[a * 6 + 1]! - v6[b * 6 + 1]!,
  );
  order6.forEach((from, to) => {
    result.v6Start[to * 2] = v6[from * 6]!;
    result.v6Start[to * 2 + 1] = v6[from * 6 + 1]!;
    result.v6End[to * 2] = v6[from * 6 + 2]!;
    result.v6End[to * 2 + 1] = v6[from * 6 + 3]!;
    result.v6Asn[to] = v6[from * 6 + 4]!;
    result.v6Name[to] = v6[from * 6 + 5]!;
  });
  return result;
}

/** The arrays of a table in file order. */
function sections(t: TableArrays): Uint32Array[] {
  return [t.v4Start, t.v4End, t.v4Asn, t.v4Name, t.v6Start, t.v6End, t.v6Asn, t.v6Name];
}

const UNKNOWN: Network = Object.freeze({ asn: undefined, isp: undefined });
const address = new Uint32Array(4);

function found(t: Table, asn: number, name: number): Network {
  return { asn, isp: t.names[name] || undefined };
}

/** ASN and ISP of an IPv4 or IPv6 address; both undefined for unknown ones and before loadNetworks. */
export function networkOfIp(ip: string | undefined): Network {
  return networkOfAddress(readAddress(ip, address), address);
}

/** networkOfIp of an address already read: `kind` and `words` as readAddress left them. */
export function networkOfAddress(kind: number, words: Uint32Array): Network {
  const t = table;
  if (!t || kind === NONE) return UNKNOWN;
  if (kind === V4) {
    const value = words[0]!;
    const range = t.v4Search(value);
    return range >= 0 && value <= t.v4End[range]! ? found(t, t.v4Asn[range]!, t.v4Name[range]!) : UNKNOWN;
  }
  const valueHigh = words[0]!;
  const valueLow = words[1]!;
  let low = 0;
  let high = t.v6Asn.length - 1;
  if (high < 0 || compare(t.v6Start, 0, valueHigh, valueLow) > 0) return UNKNOWN;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (compare(t.v6Start, middle, valueHigh, valueLow) <= 0) low = middle;
    else high = middle - 1;
  }
  return compare(t.v6End, low, valueHigh, valueLow) >= 0 ? found(t, t.v6Asn[low]!, t.v6Name[low]!) : UNKNOWN;
}

/** Entry `index` of a (high, low) pair array against a 64-bit value: negative, zero or positive. */
function compare(pairs: Uint32Array, index: number, high: number, low: number): number {
  return pairs[index * 2]! - high || pairs[index * 2 + 1]! - low;
}
