import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// The GeoLite2 country database that geoip-country ships. The package loads it into memory when it is
// required (about 20 ms) and answers IPv6 addresses. IPv4 addresses, nearly every click, are looked up
// here in the same file: the package's own lookup builds an object with the country's name, languages
// and continent for every call, a tenth of what routing a click cost besides HTTP.
const require = createRequire(import.meta.url);
const geoip = require('geoip-country') as { lookup(ip: string): { country?: string } | null };

/**
 * The package's IPv4 file, searched in place (nothing built from it at start-up): one range per 10-byte
 * record, in address order — first and last address (32-bit big-endian), then the two-letter country.
 */
const RECORD_BYTES = 10;

function loadIpv4Table(): Buffer | null {
  try {
    return readFileSync(
      path.join(path.dirname(require.resolve('geoip-country/package.json')), 'data/geoip-country.dat'),
    );
  } catch {
    return null; // geoip-country's own lookup answers instead
  }
}

const ipv4Table = loadIpv4Table();

/** A dotted-quad IPv4 address as a 32-bit number, or -1 when `ip` is not exactly one. */
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

function countryOfIpv4(address: number, table: Buffer): string | undefined {
  // The last range starting at or before the address.
  let low = 0;
  let high = Math.floor(table.length / RECORD_BYTES) - 1;
  if (high < 0 || address < table.readUInt32BE(0)) return undefined;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (table.readUInt32BE(middle * RECORD_BYTES) <= address) low = middle;
    else high = middle - 1;
  }
  const record = low * RECORD_BYTES;
  if (address > table.readUInt32BE(record + 4)) return undefined;
  return table.toString('latin1', record + 8, record + 10) || undefined;
}

const MAPPED_PREFIX = '::ffff:';

/** The two-letter country of an IPv4 or IPv6 address; undefined for private, local or unknown ones. */
export function countryOfIp(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  if (ipv4Table) {
    const mapped = ip.charCodeAt(0) === 58 && ip.slice(0, MAPPED_PREFIX.length).toLowerCase() === MAPPED_PREFIX;
    const address = ipv4Number(ip, mapped ? MAPPED_PREFIX.length : 0);
    if (address >= 0) return countryOfIpv4(address, ipv4Table);
  }
  try {
    return geoip.lookup(ip)?.country || undefined;
  } catch {
    return undefined;
  }
}
