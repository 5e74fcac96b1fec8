// Address parsing shared by the per-click lookups (places, networks, crawlers). Hand-written rather than
// the domain's parseIpAddress because it runs on every click and must not allocate: IPv6 words go into
// a caller's array, IPv4 comes back as a number (the domain's ipv4Number).

import { ipv4Number } from '@switchyard/domain';

export { ipv4Number };

const MAPPED_PREFIX = '::ffff:';

/** What `readAddress` found: no address, an IPv4 one (also from ::ffff:a.b.c.d) or an IPv6 one. */
export const NONE = 0;
export const V4 = 4;
export const V6 = 6;

/**
 * Reads `ip` into `words`: for IPv4 (and IPv4-mapped IPv6) words[0] is the 32-bit address; for IPv6
 * words[0..3] are its four 32-bit words, most significant first. Returns NONE, V4 or V6.
 */
export function readAddress(ip: string | undefined, words: Uint32Array): number {
  if (!ip || ip.length > 64) return NONE;
  const v4 = ipv4Number(ip);
  if (v4 >= 0) {
    words[0] = v4;
    return V4;
  }
  if (ip.indexOf(':') < 0) return NONE;
  if (ip.length > MAPPED_PREFIX.length && ip.slice(0, MAPPED_PREFIX.length).toLowerCase() === MAPPED_PREFIX) {
    const mapped = ipv4Number(ip, MAPPED_PREFIX.length);
    if (mapped >= 0) {
      words[0] = mapped;
      return V4;
    }
  }
  if (!readIpv6(ip, words)) return NONE;
  // ::ffff:0808:0808, the mapped form written in hex.
  if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff) {
    words[0] = words[3]!;
    return V4;
  }
  return V6;
}

const groups = new Uint16Array(8);

/** Parses a textual IPv6 address (with `::` and an optional dotted-quad tail) into four 32-bit words. */
function readIpv6(ip: string, words: Uint32Array): boolean {
  let count = 0;
  let gap = -1; // index in `groups` where `::` stands
  let index = 0;
  const length = ip.length;
  if (ip.charCodeAt(0) === 58) {
    if (ip.charCodeAt(1) !== 58) return false;
    gap = 0;
    index = 2;
    if (index === length) {
      words.fill(0);
      return true;
    }
  }
  while (index < length) {
    if (count === 8) return false;
    let value = 0;
    let digits = 0;
    const start = index;
    while (index < length) {
      const code = ip.charCodeAt(index);
      let digit: number;
      if (code >= 48 && code <= 57) digit = code - 48;
      else if (code >= 97 && code <= 102) digit = code - 87;
      else if (code >= 65 && code <= 70) digit = code - 55;
      else break;
      value = value * 16 + digit;
      digits += 1;
      index += 1;
    }
    if (index < length && ip.charCodeAt(index) === 46) {
      // An IPv4 tail takes the last two groups.
      if (count > 6) return false;
      const tail = ipv4Number(ip, start);
      if (tail < 0) return false;
      groups[count] = tail >>> 16;
      groups[count + 1] = tail & 0xffff;
      count += 2;
      index = length;
      break;
    }
    if (digits === 0 || digits > 4) return false;
    groups[count] = value;
    count += 1;
    if (index === length) break;
    if (ip.charCodeAt(index) !== 58) return false;
    index += 1;
    if (ip.charCodeAt(index) === 58) {
      if (gap >= 0) return false;
      gap = count;
      index += 1;
      if (index === length) break;
    } else if (index === length) {
      return false; // a trailing single colon
    }
  }
  if (gap < 0 ? count !== 8 : count > 7) return false;
  const missing = 8 - count;
  for (let word = 0; word < 4; word += 1) {
    const high = groupAt(2 * word, gap, missing, count);
    const low = groupAt(2 * word + 1, gap, missing, count);
    words[word] = ((high << 16) | low) >>> 0;
  }
  return true;
}

/** Group `position` of the full eight, with `missing` zero groups inserted at `gap`. */
function groupAt(position: number, gap: number, missing: number, count: number): number {
  if (gap < 0) return groups[position]!;
  if (position < gap) return groups[position]!;
  if (position < gap + missing) return 0;
  const source = position - missing;
  return source < count ? groups[source]! : 0;
}

/** Dotted-quad text of a 32-bit address. */
export function ipv4Text(address: number): string {
  return `${address >>> 24}.${(address >>> 16) & 255}.${(address >>> 8) & 255}.${address & 255}`;
}

/**
 * A search of sorted IPv4 range starts: the index of the last range starting at or before an address,
 * or -1. The top 16 bits of the address name the few ranges it may fall in (`counts[b]`: how many
 * ranges start at or before b·2¹⁶), and a binary search among those finds it; a plain binary search over
 * millions of ranges read a dozen places in memory no processor cache held.
 */
export function ipv4RangeSearch(starts: Uint32Array): (address: number) => number {
  const counts = new Uint32Array(65537);
  let count = 0;
  for (let block = 0; block <= 65536; block += 1) {
    const blockStart = block * 65536;
    while (count < starts.length && starts[count]! <= blockStart) count += 1;
    counts[block] = count;
  }
  return (address) => {
    const block = address >>> 16;
    let low = counts[block]!;
    let high = counts[block + 1]!;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle - 1]! <= address) low = middle;
      else high = middle - 1;
    }
    return low - 1;
  };
}
