import { readFileSync } from 'node:fs';
import { NONE, readAddress, V4 } from './addresses.js';

// Whether a visitor's address is one a search-engine crawler is published to come from. The operators
// publish their lists as JSON (crawler-ranges.json beside this file says which and when); the lists are
// shipped with the code, never fetched, and turned at module load into sorted ranges searched per click.

interface CrawlerList {
  name: string;
  prefixes: string[];
}

/** Sorted, non-overlapping ranges with inclusive ends and the index of the crawler's name. */
interface Ranges {
  start: Uint32Array; // IPv4: one word per range; IPv6: (high, low) words of the upper 64 bits
  end: Uint32Array;
  crawler: Uint8Array;
}

const words = new Uint32Array(4);

/** A CIDR (or one address) as inclusive [start, end] words: IPv4 one word, IPv6 its upper 64 bits. */
function parsePrefix(text: string): { v4: boolean; start: number[]; end: number[] } | null {
  const slash = text.indexOf('/');
  const kind = readAddress(slash < 0 ? text : text.slice(0, slash), words);
  if (kind === NONE) return null;
  const bits = kind === V4 ? 32 : 128;
  const length = slash < 0 ? bits : Number(text.slice(slash + 1));
  if (!Number.isInteger(length) || length < 0 || length > bits) return null;
  if (kind === V4) {
    const size = 2 ** (32 - length);
    const start = words[0]! - (words[0]! % size);
    return { v4: true, start: [start], end: [start + size - 1] };
  }
  // Longer IPv6 prefixes than /64 are kept as their /64: crawlers publish /64s, and a network below that
  // is one operator's anyway.
  const high = maskedRange(words[0]!, Math.min(length, 32));
  const low = length <= 32 ? [0, 0xffffffff] : maskedRange(words[1]!, Math.min(length - 32, 32));
  return { v4: false, start: [high[0]!, low[0]!], end: [high[1]!, low[1]!] };
}

/** First and last value of a 32-bit word whose top `length` bits are fixed. */
function maskedRange(word: number, length: number): [number, number] {
  const size = 2 ** (32 - length);
  const start = word - (word % size);
  return [start, start + size - 1];
}

function compareWords(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index += 1) if (a[index]! !== b[index]!) return a[index]! - b[index]!;
  return 0;
}

function buildRanges(entries: { start: number[]; end: number[]; crawler: number }[], width: number): Ranges {
  entries.sort((a, b) => compareWords(a.start, b.start));
  const merged: typeof entries = [];
  for (const entry of entries) {
    const last = merged[merged.length - 1];
    // Overlapping ranges would break the search for the last start at or before an address.
    if (last && compareWords(entry.start, last.end) <= 0) {
      if (compareWords(entry.end, last.end) > 0) last.end = entry.end;
    } else {
      merged.push({ ...entry });
    }
  }
  const ranges: Ranges = {
    start: new Uint32Array(merged.length * width),
    end: new Uint32Array(merged.length * width),
    crawler: new Uint8Array(merged.length),
  };
  merged.forEach((entry, index) => {
    ranges.start.set(entry.start, index * width);
    ranges.end.set(entry.end, index * width);
    ranges.crawler[index] = entry.crawler;
  });
  return ranges;
}

function loadRanges(): { names: string[]; v4: Ranges; v6: Ranges } {
  const file = JSON.parse(readFileSync(new URL('./crawler-ranges.json', import.meta.url), 'utf8')) as {
    crawlers: CrawlerList[];
  };
  const names = file.crawlers.map((list) => list.name);
  const v4: { start: number[]; end: number[]; crawler: number }[] = [];
  const v6: typeof v4 = [];
  file.crawlers.forEach((list, crawler) => {
    for (const text of list.prefixes) {
      const prefix = parsePrefix(text);
      if (prefix) (prefix.v4 ? v4 : v6).push({ start: prefix.start, end: prefix.end, crawler });
    }
  });
  return { names, v4: buildRanges(v4, 1), v6: buildRanges(v6, 2) };
}

const { names, v4, v6 } = loadRanges();

/** The crawler (`Googlebot`, `Bingbot`, …) whose published ranges hold the address, else undefined. */
export function crawlerOfIp(ip: string | undefined): string | undefined {
  return crawlerOfAddress(readAddress(ip, words), words);
}

/** crawlerOfIp of an address already read: `kind` and `address` as readAddress left them. */
export function crawlerOfAddress(kind: number, address: Uint32Array): string | undefined {
  if (kind === NONE) return undefined;
  if (kind === V4) {
    const value = address[0]!;
    const { start, end } = v4;
    let low = 0;
    let high = start.length - 1;
    if (high < 0 || value < start[0]!) return undefined;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (start[middle]! <= value) low = middle;
      else high = middle - 1;
    }
    return value <= end[low]! ? names[v4.crawler[low]!] : undefined;
  }
  const valueHigh = address[0]!;
  const valueLow = address[1]!;
  const { start, end } = v6;
  let low = 0;
  let high = v6.crawler.length - 1;
  if (high < 0 || compareAt(start, 0, valueHigh, valueLow) > 0) return undefined;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (compareAt(start, middle, valueHigh, valueLow) <= 0) low = middle;
    else high = middle - 1;
  }
  return compareAt(end, low, valueHigh, valueLow) >= 0 ? names[v6.crawler[low]!] : undefined;
}

/** Entry `index` of a (high, low) pair array against a 64-bit value: negative, zero or positive. */
function compareAt(pairs: Uint32Array, index: number, high: number, low: number): number {
  return pairs[index * 2]! - high || pairs[index * 2 + 1]! - low;
}
