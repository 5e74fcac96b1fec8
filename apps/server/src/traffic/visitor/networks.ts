import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { NONE, readAddress, V4, V6 } from './addresses.js';

// ASN and ISP (the AS organisation's name) of a visitor from @ip-location-db/asn: RouteViews, the five
// RIRs and DB-IP's ASN Lite merged, CC BY 4.0. The package ships 63 MB of CSV; parsing it takes seconds,
// so it is turned once into a binary file of sorted ranges in the data directory and every later start
// reads that back. A postinstall step could do the same, but the data directory is the one place a
// running server may surely write, and a file there is rebuilt by itself when the package is upgraded.

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
}

const require = createRequire(import.meta.url);
const MAGIC = 'SYASN\u0001\n\n';
const HEADER_BYTES = 56; // magic, four counts, SHA-256 of the rest

let table: Table | null = null;

function packageFolder(): string {
  return path.dirname(require.resolve('@ip-location-db/asn/package.json'));
}

/**
 * Makes networkOfIp answer: reads `<cacheDir>/asn-<package version>.bin`, or builds it from the package's
 * CSV when it is missing or damaged. Call once at start, before clicks are answered.
 */
export async function loadNetworks(cacheDir: string, log: (message: string) => void = () => {}): Promise<void> {
  const folder = packageFolder();
  const version = (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version: string }).version;
  const file = path.join(cacheDir, `asn-${version}.bin`);
  let bytes: Uint8Array | null = null;
  try {
    bytes = await readFile(file);
  } catch {
    // not built yet
  }
  const loaded = bytes ? decodeTable(bytes) : null;
  if (loaded) {
    table = loaded;
    return;
  }
  if (bytes) log(`ASN cache ${file} is damaged; rebuilding it`);
  const started = performance.now();
  const built = await buildTable(folder);
  const encoded = encodeTable(built);
  // What a later start reads: compact names, not slices of the CSV's lines that keep those alive.
  table = decodeTable(encoded) ?? built;
  log(`ASN cache built in ${Math.round(performance.now() - started)} ms: ${file}`);
  try {
    await mkdir(cacheDir, { recursive: true });
    // Written beside and renamed, so a reader (or a second server) never sees half a file.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, encoded);
    await rename(partial, file);
    await removeOlderCaches(cacheDir, path.basename(file));
  } catch (error) {
    // Lookups work all the same; the next start builds the table again.
    log(`ASN cache ${file} could not be written: ${(error as Error).message}`);
  }
}

async function removeOlderCaches(cacheDir: string, keep: string): Promise<void> {
  for (const name of await readdir(cacheDir)) {
    if (name !== keep && /^asn-.*\.bin$/.test(name)) await rm(path.join(cacheDir, name), { force: true });
  }
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

async function buildTable(folder: string): Promise<Table> {
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
  const result: Table = {
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

/** The arrays of a table in file order, each a whole number of 32-bit words. */
function sections(t: Table): Uint32Array[] {
  return [t.v4Start, t.v4End, t.v4Asn, t.v4Name, t.v6Start, t.v6End, t.v6Asn, t.v6Name];
}

function encodeTable(t: Table): Buffer {
  const nameBytes = t.names.map((name) => Buffer.from(name, 'utf8'));
  const nameEnds = new Uint32Array(t.names.length);
  let offset = 0;
  nameBytes.forEach((bytes, index) => {
    offset += bytes.length;
    nameEnds[index] = offset;
  });
  const body = Buffer.concat([
    ...[...sections(t), nameEnds].map((array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength)),
    ...nameBytes,
  ]);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(t.v4Start.length, 8);
  header.writeUInt32LE(t.v6Asn.length, 12);
  header.writeUInt32LE(t.names.length, 16);
  header.writeUInt32LE(offset, 20);
  createHash('sha256').update(body).digest().copy(header, 24);
  return Buffer.concat([header, body]);
}

/** The table in a cache file, or null when the file is not whole and exactly what encodeTable wrote. */
function decodeTable(file: Uint8Array): Table | null {
  if (file.length < HEADER_BYTES) return null;
  const header = Buffer.from(file.buffer, file.byteOffset, HEADER_BYTES);
  if (header.toString('latin1', 0, 8) !== MAGIC) return null;
  const v4Count = header.readUInt32LE(8);
  const v6Count = header.readUInt32LE(12);
  const nameCount = header.readUInt32LE(16);
  const nameBytes = header.readUInt32LE(20);
  const wordCount = v4Count * 4 + v6Count * 6 + nameCount;
  if (file.length !== HEADER_BYTES + wordCount * 4 + nameBytes) return null;
  const body = file.subarray(HEADER_BYTES);
  if (!createHash('sha256').update(body).digest().equals(header.subarray(24, 56))) return null;
  // Typed arrays need 4-byte alignment; a copy gives it whatever the read buffer had.
  const words = new Uint32Array(wordCount);
  new Uint8Array(words.buffer).set(body.subarray(0, wordCount * 4));
  let at = 0;
  const take = (length: number) => {
    const array = words.subarray(at, at + length);
    at += length;
    return array;
  };
  const t: Table = {
    v4Start: take(v4Count),
    v4End: take(v4Count),
    v4Asn: take(v4Count),
    v4Name: take(v4Count),
    v6Start: take(v6Count * 2),
    v6End: take(v6Count * 2),
    v6Asn: take(v6Count),
    v6Name: take(v6Count),
    names: [],
  };
  const nameEnds = take(nameCount);
  const text = Buffer.from(body.buffer, body.byteOffset + wordCount * 4, nameBytes);
  let start = 0;
  for (const end of nameEnds) {
    if (end < start || end > nameBytes) return null;
    t.names.push(text.toString('utf8', start, end));
    start = end;
  }
  return t;
}

const UNKNOWN: Network = Object.freeze({ asn: undefined, isp: undefined });
const address = new Uint32Array(4);

function found(t: Table, asn: number, name: number): Network {
  return { asn, isp: t.names[name] || undefined };
}

/** The loaded table (a new object at each load), for caches of networkOfIp's answers to tell they are stale. */
export function networksTable(): object | null {
  return table;
}

/** ASN and ISP of an IPv4 or IPv6 address; both undefined for unknown ones and before loadNetworks. */
export function networkOfIp(ip: string | undefined): Network {
  const t = table;
  if (!t) return UNKNOWN;
  const kind = readAddress(ip, address);
  if (kind === NONE) return UNKNOWN;
  if (kind === V4) {
    const value = address[0]!;
    // The last range starting at or before the address.
    let low = 0;
    let high = t.v4Start.length - 1;
    if (high < 0 || value < t.v4Start[0]!) return UNKNOWN;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (t.v4Start[middle]! <= value) low = middle;
      else high = middle - 1;
    }
    return value <= t.v4End[low]! ? found(t, t.v4Asn[low]!, t.v4Name[low]!) : UNKNOWN;
  }
  const valueHigh = address[0]!;
  const valueLow = address[1]!;
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
