// `ip` rules, made once into a test a click runs on every path group it passes.
import {
  type AddressRule,
  type IpAddress,
  ipv4Number,
  matchesAddressRules,
  parseAddressRule,
  parseIpAddress,
  unmapIpAddress,
} from '../network-addresses.js';

const toUint32 = (bytes: readonly number[]) =>
  ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;

/**
 * The last address read: a click's rules all read the same one, so it is parsed once per click. IPv4
 * (also mapped into IPv6) as a number, -1 for none; IPv6 as read, else null.
 */
let lastText: string | undefined;
let lastV4 = -1;
let lastV6: IpAddress | null = null;

function readAddress(text: string): void {
  if (text === lastText) return;
  lastText = text;
  lastV6 = null;
  // Dotted decimal, as nearly every visitor's address is, without ipaddr.js.
  lastV4 = ipv4Number(text);
  if (lastV4 >= 0) return;
  const parsed = parseIpAddress(text);
  const address = parsed && unmapIpAddress(parsed);
  if (address?.version === 4) lastV4 = toUint32(address.bytes);
  else lastV6 = address;
}

/** IPv4 rules as sorted, merged [first, last] ranges: a binary search instead of a walk of every rule. */
export function ipv4Ranges(rules: readonly AddressRule[]): Float64Array {
  const ranges = rules
    .filter((rule) => rule.version === 4)
    .map((rule) => {
      const first = toUint32(rule.bytes);
      return [first, first + 2 ** (32 - rule.prefix) - 1] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [first, last] of ranges) {
    const end = merged.length - 1;
    if (end > 0 && first <= merged[end]! + 1) merged[end] = Math.max(merged[end]!, last);
    else merged.push(first, last);
  }
  return Float64Array.from(merged);
}

function inRanges(ranges: Float64Array, value: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (value < ranges[middle * 2]!) high = middle - 1;
    else if (value > ranges[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

/**
 * Whether an address is in any of `values` (addresses and CIDRs, v4 and v6; values that are neither are
 * skipped: validation refuses them on save). An IPv4-mapped IPv6 address matches IPv4 rules.
 */
export function compileAddressTest(values: readonly string[]): (ip: string) => boolean {
  const rules = values.flatMap((value) => {
    const parsed = parseAddressRule(value);
    return parsed.ok ? [parsed.rule] : [];
  });
  const v4 = ipv4Ranges(rules);
  const v6 = rules.filter((rule) => rule.version === 6);
  return (ip) => {
    readAddress(ip);
    if (lastV4 >= 0) return inRanges(v4, lastV4);
    return lastV6 !== null && v6.length > 0 && matchesAddressRules(ip, v6);
  };
}
