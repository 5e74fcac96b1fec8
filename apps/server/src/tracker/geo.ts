import { createRequire } from 'node:module';

// geoip-country ships its GeoLite2 country data in the package and loads it into memory at require
// time (about 20 ms); lookups are synchronous and take about a microsecond.
const geoip = createRequire(import.meta.url)('geoip-country') as {
  lookup(ip: string): { country?: string } | null;
};

/** The two-letter country of an IPv4 or IPv6 address; undefined for private, local or unknown ones. */
export function countryOfIp(ip: string | undefined): string | undefined {
  if (!ip) return undefined;
  try {
    return geoip.lookup(ip)?.country || undefined;
  } catch {
    return undefined;
  }
}
