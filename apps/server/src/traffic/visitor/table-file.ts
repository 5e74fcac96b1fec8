import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';

// The address tables that take seconds to build from a package's data (networks.ts, place-table.ts)
// are built once into a file in the cache directory, named after the package's version, and read back
// by every later start. The data directory is the one place a running server may surely write, and a
// file there is rebuilt by itself when the package is upgraded.

/** A list of texts read by index: an array when built, each decoded from the file's bytes when read. */
export interface TextList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** A table as files hold it: arrays of 32-bit words and a list of texts. */
export interface TableData {
  words: Uint32Array[];
  texts: TextList;
}

/** What a build gives: the texts as an array. */
export interface BuiltTable {
  words: Uint32Array[];
  texts: readonly string[];
}

export interface TableFile {
  /** What the log calls it: "ASN cache". */
  label: string;
  /** Eight characters that open the file, different for each kind of table and each layout. */
  magic: string;
  /** The file's name in the cache directory; other files matching `stale` are removed after a build. */
  name: string;
  stale: RegExp;
  build: () => Promise<BuiltTable>;
}

/**
 * The tables this process read, by file, with the size and time of the file they came from: a server
 * (and a test) starts its engine again and again, and the same file is not read and checked each time.
 */
const kept = new Map<string, { size: number; mtimeMs: number; data: TableData }>();

async function stampOf(file: string): Promise<{ size: number; mtimeMs: number } | null> {
  try {
    const { size, mtimeMs } = await stat(file);
    return { size, mtimeMs };
  } catch {
    return null;
  }
}

const HEADER = 24; // magic, array count, text count, text bytes, CRC-32 of the rest

/**
 * Reads the table from its file, or builds it and writes the file when it is missing or not whole. A
 * file that cannot be written only means the next start builds again. A file this process read or
 * wrote, unchanged since, gives back the same table (the same object).
 */
export async function loadTableFile(
  cacheDir: string,
  spec: TableFile,
  log: (message: string) => void,
): Promise<TableData> {
  const file = path.join(cacheDir, spec.name);
  const stamp = await stampOf(file);
  const known = kept.get(file);
  if (stamp && known && known.size === stamp.size && known.mtimeMs === stamp.mtimeMs) return known.data;
  let bytes: Uint8Array | null = null;
  try {
    bytes = await readFile(file);
  } catch {
    // not built yet
  }
  const loaded = bytes ? decodeTable(spec.magic, bytes) : null;
  if (loaded && stamp) kept.set(file, { ...stamp, data: loaded });
  if (loaded) return loaded;
  if (bytes) log(`${spec.label} ${file} is damaged; rebuilding it`);
  const started = performance.now();
  const encoded = encodeTable(spec.magic, await spec.build());
  // What a later start reads: compact texts, not slices of the source's lines that keep those alive.
  const table = decodeTable(spec.magic, encoded) as TableData;
  log(`${spec.label} built in ${Math.round(performance.now() - started)} ms: ${file}`);
  try {
    await mkdir(cacheDir, { recursive: true });
    // Written beside and renamed, so a reader (or a second server) never sees half a file.
    const partial = `${file}.${process.pid}.tmp`;
    await writeFile(partial, encoded);
    await rename(partial, file);
    const written = await stampOf(file);
    if (written) kept.set(file, { ...written, data: table });
    for (const other of await readdir(cacheDir)) {
      if (other !== spec.name && spec.stale.test(other)) await rm(path.join(cacheDir, other), { force: true });
    }
  } catch (error) {
    log(`${spec.label} ${file} could not be written: ${(error as Error).message}`);
  }
  return table;
}

export function encodeTable(magic: string, table: BuiltTable): Buffer {
  // The texts are one UTF-8 run and the byte offset where each ends.
  const bytes = table.texts.map((text) => Buffer.from(text, 'utf8'));
  const textEnds = new Uint32Array(bytes.length);
  let end = 0;
  bytes.forEach((text, index) => {
    end += text.length;
    textEnds[index] = end;
  });
  const text = Buffer.concat(bytes);
  const lengths = Uint32Array.from(table.words, (array) => array.length);
  const body = Buffer.concat([
    ...[lengths, ...table.words, textEnds].map((array) =>
      Buffer.from(array.buffer, array.byteOffset, array.byteLength),
    ),
    text,
  ]);
  const header = Buffer.alloc(HEADER);
  header.write(magic, 0, 8, 'latin1');
  header.writeUInt32LE(table.words.length, 8);
  header.writeUInt32LE(table.texts.length, 12);
  header.writeUInt32LE(text.length, 16);
  // A check against a cut or damaged file, not against someone who may write the cache directory.
  header.writeUInt32LE(crc32(body), 20);
  return Buffer.concat([header, body]);
}

/** The table in a file, or null when the file is not whole and exactly what encodeTable wrote. */
export function decodeTable(magic: string, file: Uint8Array): TableData | null {
  if (file.length < HEADER) return null;
  const header = Buffer.from(file.buffer, file.byteOffset, HEADER);
  if (header.toString('latin1', 0, 8) !== magic) return null;
  const arrayCount = header.readUInt32LE(8);
  const textCount = header.readUInt32LE(12);
  const textBytes = header.readUInt32LE(16);
  const body = Buffer.from(file.buffer, file.byteOffset + HEADER, file.length - HEADER);
  if (body.length < arrayCount * 4 || crc32(body) !== header.readUInt32LE(20)) return null;
  const lengths = Array.from({ length: arrayCount }, (_, index) => body.readUInt32LE(index * 4));
  const wordCount = arrayCount + lengths.reduce((sum, length) => sum + length, 0) + textCount;
  if (body.length !== wordCount * 4 + textBytes) return null;
  // Typed arrays need 4-byte alignment: the read buffer is used as it is when it has it, else copied.
  let all: Uint32Array;
  if (body.byteOffset % 4 === 0) {
    all = new Uint32Array(body.buffer, body.byteOffset, wordCount);
  } else {
    all = new Uint32Array(wordCount);
    new Uint8Array(all.buffer).set(body.subarray(0, wordCount * 4));
  }
  let at = arrayCount;
  const take = (length: number) => {
    const array = all.subarray(at, at + length);
    at += length;
    return array;
  };
  const words = lengths.map(take);
  const textEnds = take(textCount);
  const text = body.subarray(wordCount * 4);
  let start = 0;
  for (let index = 0; index < textCount; index += 1) {
    const end = textEnds[index]!;
    if (end < start || end > textBytes) return null;
    start = end;
  }
  if (start !== textBytes) return null;
  // Decoded when asked, each on its own: half a million strings made at start are half a million
  // objects for every full collection to mark; and a text cut from one string of them all would be
  // two-byte wherever any of them is, as "US" then is, for every comparison and write it goes through.
  const texts: TextList = {
    length: textCount,
    at: (index) =>
      index >= 0 && index < textCount
        ? text.toString('utf8', index === 0 ? 0 : textEnds[index - 1], textEnds[index])
        : undefined,
  };
  return { words, texts };
}
