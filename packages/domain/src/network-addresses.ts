// IP address literals, v4 and v6, read with ipaddr.js rather than node:net (the dashboard uses them too):
// what kind of network an address is on (outbound postbacks never reach loopback, private, link-local or
// multicast addresses), and lists of addresses and CIDR ranges (an affiliate network's postback addresses).
import ipaddr from 'ipaddr.js';

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly bytes: readonly number[];
}

/**
 * Where an address leads. Only `public` may be the target of an outbound request; `reserved` covers
 * documentation, benchmarking, broadcast and every range not assigned for global unicast.
 */
export type AddressClass = 'public' | 'private' | 'loopback' | 'link-local' | 'multicast' | 'unspecified' | 'reserved';

/** Dotted-decimal IPv4 only: four parts 0–255, no leading zeros (`010` could be read as octal). */
function parseIpv4Bytes(text: string): number[] | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text).toByteArray() : null;
}

/**
 * 16 bytes, or null. `::` once at most; the last 32 bits may be written as dotted decimal IPv4. ipaddr.js
 * reads more than that, so: no zone (`%eth0`), no octal or hex IPv4 tail, and `::1.2.3.4` stays the
 * IPv4-compatible address it is written as (ipaddr.js would read it as `::ffff:1.2.3.4`).
 */
function parseIpv6Bytes(text: string): number[] | null {
  if (text.length === 0 || text.length > 45 || text.includes('%')) return null;
  let literal = text;
  if (text.includes('.')) {
    const colon = text.lastIndexOf(':');
    if (!ipaddr.IPv4.isValidFourPartDecimal(text.slice(colon + 1))) return null;
    if (colon === 1 && text.startsWith('::')) literal = `::0:${text.slice(2)}`;
  }
  return ipaddr.IPv6.isValid(literal) ? ipaddr.IPv6.parse(literal).toByteArray() : null;
}

/**
 * An IP address literal (`10.0.0.1`, `::1`, `[::1]` as a URL's hostname writes it), or null when `text`
 * is not one. IPv4 must be dotted decimal: parse a URL with `new URL()` first, which turns
 * `2130706433` or `0x7f.1` into `127.0.0.1`.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const trimmed = text.trim();
  const bracketed = trimmed.startsWith('[') && trimmed.endsWith(']');
  const bare = bracketed ? trimmed.slice(1, -1) : trimmed;
  if (bracketed || bare.includes(':')) {
    const bytes = parseIpv6Bytes(bare);
    return bytes ? { version: 6, bytes } : null;
  }
  const bytes = parseIpv4Bytes(bare);
  return bytes ? { version: 4, bytes } : null;
}

/**
 * A dotted-quad IPv4 address as a 32-bit number, or -1 when `ip` is not exactly one: what parseIpAddress
 * reads as IPv4 untrimmed, without allocating (it runs on every click).
 */
export function ipv4Number(ip: string, from = 0): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let index = from; index < ip.length; index += 1) {
    const code = ip.charCodeAt(index);
    if (code === 46) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots += 1;
    } else if (code >= 48 && code <= 57) {
      // No leading zeros (an octal reading elsewhere), at most three digits, at most 255.
      if ((digits > 0 && octet === 0) || digits === 3) return -1;
      octet = octet * 10 + (code - 48);
      if (octet > 255) return -1;
      digits += 1;
    } else {
      return -1;
    }
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + octet;
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) stands for; others as they are. */
export function unmapIpAddress(address: IpAddress): IpAddress {
  return address.version === 6 && startsWith(address.bytes, MAPPED_PREFIX, 96)
    ? { version: 4, bytes: address.bytes.slice(12) }
    : address;
}

/** `address` in its usual text: dotted decimal, or IPv6 with its longest zero run as `::` (RFC 5952). */
export function formatIpAddress(address: IpAddress): string {
  if (address.version === 4) return address.bytes.join('.');
  return (ipaddr.fromByteArray([...address.bytes]) as ipaddr.IPv6).toRFC5952String();
}

/** Whether the first `bits` bits of `bytes` equal those of `prefix`. */
function startsWith(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  const whole = Math.floor(bits / 8);
  for (let index = 0; index < whole; index += 1) {
    if (bytes[index] !== prefix[index]) return false;
  }
  const rest = bits % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((bytes[whole] ?? 0) & mask) === ((prefix[whole] ?? 0) & mask);
}

type Range = readonly [network: readonly number[], bits: number, kind: AddressClass];

const v4 = (text: string): number[] => parseIpv4Bytes(text)!;
const v6 = (text: string): number[] => parseIpv6Bytes(text)!;

const MAPPED_PREFIX = v6('::ffff:0:0');

/** IPv4 ranges that are not public (IANA special-purpose registry), most specific first. */
const V4_RANGES: readonly Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'private'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'reserved'],
  [v4('192.88.99.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'private'],
  [v4('198.51.100.0'), 24, 'reserved'],
  [v4('203.0.113.0'), 24, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

/** IPv6 ranges, checked after `::`, `::1` and the ranges that carry an IPv4 address. */
const V6_RANGES: readonly Range[] = [
  [v6('64:ff9b:1::'), 48, 'private'],
  [v6('100::'), 64, 'reserved'],
  [v6('2001:db8::'), 32, 'reserved'],
  [v6('2001::'), 23, 'reserved'],
  [v6('3fff::'), 20, 'reserved'],
  [v6('fc00::'), 7, 'private'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'private'],
  [v6('ff00::'), 8, 'multicast'],
];

const NAT64_PREFIX = v6('64:ff9b::');
const SIX_TO_FOUR_PREFIX = v6('2002::');
const GLOBAL_UNICAST = v6('2000::');

function classifyIpv4(bytes: readonly number[]): AddressClass {
  for (const [network, bits, kind] of V4_RANGES) {
    if (startsWith(bytes, network, bits)) return kind;
  }
  return 'public';
}

function classifyBytes(address: IpAddress): AddressClass {
  const { bytes } = address;
  if (address.version === 4) return classifyIpv4(bytes);
  if (bytes.every((byte) => byte === 0)) return 'unspecified';
  if (bytes.slice(0, 15).every((byte) => byte === 0) && bytes[15] === 1) return 'loopback';
  // An IPv4 address inside IPv6: where it leads is where its IPv4 address leads.
  if (startsWith(bytes, MAPPED_PREFIX, 96) || startsWith(bytes, NAT64_PREFIX, 96)) {
    return classifyIpv4(bytes.slice(12));
  }
  if (startsWith(bytes, SIX_TO_FOUR_PREFIX, 16)) {
    return classifyIpv4(bytes.slice(2, 6));
  }
  for (const [network, bits, kind] of V6_RANGES) {
    if (startsWith(bytes, network, bits)) return kind;
  }
  return startsWith(bytes, GLOBAL_UNICAST, 3) ? 'public' : 'reserved';
}

/**
 * What kind of network an IP address literal is on, or null when `text` is not an IP address (a host
 * name). IPv4-mapped (`::ffff:10.0.0.1`), NAT64 and 6to4 addresses take the class of their IPv4 address.
 */
export function classifyAddress(text: string): AddressClass | null {
  const address = parseIpAddress(text);
  return address ? classifyBytes(address) : null;
}

/** Whether `text` is an IP address an outbound request may go to. False for host names too. */
export function isPublicAddress(text: string): boolean {
  return classifyAddress(text) === 'public';
}

/** One entry of an address list: an address (a /32 or /128) or a CIDR range. */
export interface AddressRule {
  readonly version: 4 | 6;
  /** The network: bits past `prefix` are zero. */
  readonly bytes: readonly number[];
  readonly prefix: number;
  /** The rule as it is usually written (`10.0.0.0/8`, `2001:db8::/32`, `203.0.113.7`). */
  readonly text: string;
}

export type AddressRuleResult = { ok: true; rule: AddressRule } | { ok: false };

const PREFIX_LENGTH = /^(?:0|[1-9][0-9]{0,2})$/;

/**
 * One address or CIDR range, v4 or v6 (`203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`). Bits past the
 * prefix are cleared (`10.1.2.3/8` is `10.0.0.0/8`); IPv4-mapped IPv6 (`::ffff:10.0.0.0/104`) becomes IPv4.
 */
export function parseAddressRule(text: string): AddressRuleResult {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const addressText = slash < 0 ? trimmed : trimmed.slice(0, slash);
  if (addressText.startsWith('[')) return { ok: false };
  const parsed = parseIpAddress(addressText);
  if (!parsed) return { ok: false };
  const width = parsed.version === 4 ? 32 : 128;
  let prefix = width;
  if (slash >= 0) {
    const prefixText = trimmed.slice(slash + 1);
    if (!PREFIX_LENGTH.test(prefixText)) return { ok: false };
    prefix = Number(prefixText);
    if (prefix > width) return { ok: false };
  }
  let address = parsed;
  if (parsed.version === 6 && prefix >= 96 && startsWith(parsed.bytes, MAPPED_PREFIX, 96)) {
    address = unmapIpAddress(parsed);
    prefix -= 96;
  }
  const bytes = address.bytes.map((byte, index) => {
    const keep = Math.max(0, Math.min(8, prefix - index * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  const network: IpAddress = { version: address.version, bytes };
  const full = address.version === 4 ? 32 : 128;
  const written = formatIpAddress(network);
  return { ok: true, rule: { ...network, prefix, text: prefix === full ? written : `${written}/${prefix}` } };
}

/**
 * Whether the address `ip` is in one of `rules`. An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, as a
 * dual-stack socket reports an IPv4 client) matches IPv4 rules. Anything not an address matches nothing.
 */
export function matchesAddressRules(ip: string, rules: readonly AddressRule[]): boolean {
  const parsed = parseIpAddress(ip);
  if (!parsed) return false;
  const address = unmapIpAddress(parsed);
  return rules.some((rule) => rule.version === address.version && startsWith(address.bytes, rule.bytes, rule.prefix));
}
