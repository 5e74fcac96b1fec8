// Everything routing reads off a visitor, once per click or lead, for the condition fields of
// §3.9 and the columns stored with the event. Lookups answer "unknown" for a missing or garbled header
// or address: a visitor is never refused for what it sent.
import { type BotReason, NO_REFERRER, referrerDomain } from '@switchyard/domain';
import { NONE, readAddress } from './addresses.js';
import { crawlerOfAddress } from './crawlers.js';
import { networkOfAddress } from './networks.js';
import { placeOfAddress } from './places.js';
import type { UserAgentTraits } from './user-agent.js';

/** What decides a bot verdict besides the visitor itself: the administrators' datacenter list. */
export interface BotPolicy {
  datacenterAsns: ReadonlySet<number>;
}

export interface VisitorInput {
  ip: string | undefined;
  userAgent: string | undefined;
  traits: UserAgentTraits | undefined;
  acceptLanguage?: string | undefined;
  referrer?: string | undefined;
  /** A lead's own country, which wins over the address's. */
  country?: string | undefined;
}

export interface VisitorReading {
  country: string | undefined;
  region: string | undefined;
  city: string | undefined;
  asn: number | undefined;
  isp: string | undefined;
  language: string | undefined;
  referrerDomain: string | undefined;
  botReason: BotReason | null;
}

/** What the address databases say of one address. */
interface AddressReading {
  country: string | undefined;
  region: string | undefined;
  city: string | undefined;
  asn: number | undefined;
  isp: string | undefined;
  crawler: boolean;
}

const NO_ADDRESS: AddressReading = Object.freeze({
  country: undefined,
  region: undefined,
  city: undefined,
  asn: undefined,
  isp: undefined,
  crawler: false,
});

/**
 * The four lookups of an address (country, region and city, network, crawler ranges), made for each
 * click: each is a search of sorted ranges, about a microsecond for all four, and no cache of their
 * answers was cheaper when visitors come from everywhere (bench/README.md, "The caches"). The address is
 * parsed once for the four.
 */
function lookUpAddress(ip: string | undefined): AddressReading {
  const kind = readAddress(ip, words);
  if (kind === NONE) return NO_ADDRESS;
  const place = placeOfAddress(kind, words, ip);
  const network = networkOfAddress(kind, words);
  return {
    country: place.country,
    region: place.region,
    city: place.city,
    asn: network.asn,
    isp: network.isp,
    crawler: crawlerOfAddress(kind, words) !== undefined,
  };
}

const words = new Uint32Array(4);

export function readVisitor(input: VisitorInput, policy: BotPolicy): VisitorReading {
  const address = lookUpAddress(input.ip || undefined);
  const country = input.country ?? address.country;
  // A lead's own country may not be the address's: a region in another country than the visitor's is not
  // trusted, nor its city. (The address's country, region and city come from one DB-IP record.)
  const placed = address.region !== undefined && country !== undefined && address.region.startsWith(country);
  return {
    country,
    region: placed ? address.region : undefined,
    city: placed ? address.city : undefined,
    asn: address.asn,
    isp: address.isp,
    language: firstLanguage(input.acceptLanguage),
    referrerDomain: refererDomain(input.referrer),
    botReason: botReason(input, address, policy),
  };
}

/**
 * The Referer's host as `referrer` rules compare it (the domain's reading); undefined for none, or for a
 * header that is no URL (a Referer is always an absolute one).
 */
function refererDomain(referer: string | undefined): string | undefined {
  if (!referer?.includes('//')) return undefined;
  const domain = referrerDomain(referer.slice(0, 2048));
  return domain === NO_REFERRER || domain === '' ? undefined : domain;
}

/** The first reason that makes the visitor a bot, by what it sent; the click rate is counted apart. */
function botReason(input: VisitorInput, address: AddressReading, policy: BotPolicy): BotReason | null {
  // A lead may come without a user agent (a partner's server sent none): then only its address tells.
  if (input.traits !== undefined || input.userAgent !== undefined) {
    if (!input.userAgent) return 'empty_user_agent';
    if (input.traits?.bot) return 'bot_user_agent';
  }
  if (address.crawler) return 'crawler_address';
  if (address.asn !== undefined && policy.datacenterAsns.has(address.asn)) return 'datacenter_asn';
  return null;
}

/** The condition fields of §3.9 that a visitor brings (clicks and leads alike). */
export function visitorFields(
  reading: VisitorReading,
  input: VisitorInput,
  unique: boolean,
): Record<string, string | number | undefined> {
  const traits = input.traits;
  return {
    countryCode: reading.country,
    region: reading.region,
    city: reading.city,
    asn: reading.asn === undefined ? undefined : String(reading.asn),
    isp: reading.isp,
    language: reading.language,
    referrer: reading.referrerDomain ?? NO_REFERRER,
    ip: input.ip || undefined,
    device: traits?.device,
    platform: traits?.platform,
    browser: traits?.browser,
    osVersion: traits?.osVersion,
    browserVersion: traits?.browserVersion,
    isUnique: unique ? 'true' : 'false',
    isBot: reading.botReason ? 'true' : 'false',
  };
}

const TWO_LETTERS = /^[a-z]{2}$/;
const MAX_HEADER = 512;

/**
 * The ISO 639-1 code of Accept-Language's first choice (the highest weight; the first of equals):
 * `fr-CH, fr;q=0.9, en;q=0.8` → `fr`. Undefined for none, `*`, or a header that names no language.
 */
export function firstLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let best: string | undefined;
  let bestWeight = 0;
  for (const part of header.slice(0, MAX_HEADER).split(',')) {
    const semicolon = part.indexOf(';');
    const tag = (semicolon < 0 ? part : part.slice(0, semicolon)).trim();
    const dash = tag.indexOf('-');
    const code = (dash < 0 ? tag : tag.slice(0, dash)).toLowerCase();
    if (!TWO_LETTERS.test(code)) continue;
    let weight = 1;
    if (semicolon >= 0) {
      const match = /q\s*=\s*([0-9.]+)/i.exec(part.slice(semicolon + 1));
      weight = match ? Number(match[1]) : 1;
      if (!Number.isFinite(weight)) weight = 0;
    }
    if (weight > bestWeight) {
      best = code;
      bestWeight = weight;
    }
  }
  return best;
}
