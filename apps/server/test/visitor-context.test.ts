import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstLanguage, readVisitor, visitorFields } from '../src/traffic/visitor/context.js';
import { crawlerOfIp } from '../src/traffic/visitor/crawlers.js';
import { loadNetworks, networkOfIp } from '../src/traffic/visitor/networks.js';
import { placeOfIp } from '../src/traffic/visitor/places.js';
import { ClickRates, LeadUniques } from '../src/traffic/visitor/rates.js';
import { describeUserAgent, majorVersion } from '../src/traffic/visitor/user-agent.js';
import { DESKTOP, IPHONE } from './fixtures/traffic.js';

// What a click or lead brings, read once: language, referrer domain, versions, and the bot
// verdict's reason in the order of BOT_REASONS (a missing or garbled header is an empty value).

const NO_DATACENTERS = { datacenterAsns: new Set<number>() };

beforeAll(() => loadNetworks(path.join(tmpdir(), 'switchyard-test-cache')));

describe('firstLanguage', () => {
  it.each([
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['en-US,en;q=0.9', 'en'],
    ['de;q=0.5, pt-BR', 'pt'],
    ['PT-br', 'pt'],
    ['*', undefined],
    ['', undefined],
    [undefined, undefined],
    [';;;q=x,*', undefined],
    ['en;q=0, fr;q=0', undefined],
    ['zh-Hant-TW;q=0.8, ja;q=0.9', 'ja'],
    ['x'.repeat(10_000), undefined],
  ])('%s → %s', (header, expected) => {
    expect(firstLanguage(header)).toBe(expected);
  });
});

describe('majorVersion', () => {
  it.each([
    ['17.4.1', 17],
    ['10_15_7', 10],
    ['124.0.6367.82', 124],
    ['', undefined],
    [undefined, undefined],
    ['beta', undefined],
  ])('%s → %s', (version, expected) => {
    expect(majorVersion(version)).toBe(expected);
  });

  it('reads the OS and browser versions of a user agent', () => {
    expect(describeUserAgent(IPHONE)).toMatchObject({ platform: 'ios', osVersion: 17, browserVersion: 17 });
    expect(describeUserAgent(DESKTOP)).toMatchObject({ platform: 'windows', osVersion: 10, browserVersion: 124 });
    expect(describeUserAgent('')).toMatchObject({ osVersion: undefined, browserVersion: undefined, bot: true });
  });
});

describe('readVisitor', () => {
  const visit = (input: {
    ip?: string;
    userAgent?: string;
    referrer?: string;
    language?: string;
    country?: string;
  }) => {
    const userAgent = input.userAgent ?? DESKTOP;
    return readVisitor(
      {
        ip: input.ip ?? '73.162.0.1',
        userAgent,
        traits: describeUserAgent(userAgent),
        referrer: input.referrer,
        acceptLanguage: input.language,
        country: input.country,
      },
      { datacenterAsns: new Set([14061]) },
    );
  };

  it('reads the referrer domain as rules compare it', () => {
    expect(visit({ referrer: 'https://WWW.News.Example:8443/a?b=c' }).referrerDomain).toBe('news.example');
    expect(visit({ referrer: 'android-app://com.google.android.gm/' }).referrerDomain).toBe('com.google.android.gm');
    expect(visit({ referrer: 'no host here' }).referrerDomain).toBeUndefined();
    expect(visit({ referrer: '' }).referrerDomain).toBeUndefined();
  });

  it("trusts no region in another country than the visitor's", () => {
    // A lead's own country wins over its address's: a region and city elsewhere are not kept.
    expect(visit({ ip: '81.2.69.160', country: 'IE' })).toMatchObject({
      country: 'IE',
      region: undefined,
      city: undefined,
    });
    expect(visit({ ip: '81.2.69.160' })).toMatchObject({ country: 'GB', region: 'GB-ENG', city: 'London' });
    // Country, region and city come from one DB-IP record, so they agree even on anycast ranges (Facebook's).
    expect(visit({ ip: '185.60.216.35' })).toMatchObject({ country: 'BR', region: 'BR-MA', city: 'Carolina' });
  });

  it('gives the first reason that holds, in the order of BOT_REASONS', () => {
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    expect(visit({}).botReason).toBeNull();
    expect(visit({ userAgent: '' }).botReason).toBe('empty_user_agent');
    // A bot's agent from a crawler's address in a datacenter: the agent is the first reason.
    expect(visit({ userAgent: googlebot, ip: '66.249.66.1' }).botReason).toBe('bot_user_agent');
    expect(visit({ ip: '66.249.66.1' }).botReason).toBe('crawler_address');
    expect(visit({ ip: '104.131.0.1' }).botReason).toBe('datacenter_asn');
  });

  it('judges no lead a bot for the user agent it was sent without, but still by its address', () => {
    const lead = (ip: string) =>
      readVisitor({ ip, userAgent: undefined, traits: undefined }, { datacenterAsns: new Set([14061]) });
    expect(lead('73.162.0.1').botReason).toBeNull();
    expect(lead('66.249.66.1').botReason).toBe('crawler_address');
    expect(lead('104.131.0.1').botReason).toBe('datacenter_asn');
  });

  it("reads an address the same each time; a lead's own country never changes the address's", () => {
    const first = visit({ ip: '81.2.69.160' });
    expect(visit({ ip: '81.2.69.160' })).toEqual(first);
    // A lead that names its country: the region of another country is not trusted…
    const lead = readVisitor(
      { ip: '81.2.69.160', userAgent: undefined, traits: undefined, country: 'DE' },
      NO_DATACENTERS,
    );
    expect(lead).toMatchObject({ country: 'DE', region: undefined, city: undefined, asn: first.asn });
    // …and the next visitor from that address still gets the address's own country and place.
    expect(visit({ ip: '81.2.69.160' })).toMatchObject({ country: 'GB', region: 'GB-ENG', city: 'London' });
    // A text longer than any address reads as unknown.
    expect(visit({ ip: `81.2.69.160${' '.repeat(100)}` })).toMatchObject({ country: undefined, asn: undefined });
  });

  it('reads an address once for all its lookups, as each lookup alone reads it', () => {
    const addresses = [
      '81.2.69.160',
      '::ffff:81.2.69.160',
      '::ffff:5102:45a0',
      '2a03:2880:f003:c07:face:b00c::2',
      '2001:4860:4801:10::1', // Googlebot's
      '66.249.66.1',
      '104.131.0.1',
      '10.0.0.1',
      'not an address',
    ];
    for (const ip of addresses) {
      const reading = readVisitor({ ip, userAgent: undefined, traits: undefined }, NO_DATACENTERS);
      const place = placeOfIp(ip);
      const network = networkOfIp(ip);
      expect({ ip, ...reading }).toMatchObject({
        ip,
        country: place.country,
        region: place.region,
        city: place.city,
        asn: network.asn,
        isp: network.isp,
        botReason: crawlerOfIp(ip) === undefined ? null : 'crawler_address',
      });
    }
    // The same place however an IPv4 address is written, and IPv6 read on its own path.
    expect(visit({ ip: '::ffff:5102:45a0' })).toMatchObject({ country: 'GB', city: 'London' });
    expect(visit({ ip: '2001:4860:4801:10::1' }).botReason).toBe('crawler_address');
    expect(visit({ ip: '2a03:2880:f003:c07:face:b00c::2' }).country).toMatch(/^[A-Z]{2}$/);
  });

  it('makes the condition fields of §3.9 from what it read', () => {
    const input = { ip: '73.162.0.1', userAgent: IPHONE, traits: describeUserAgent(IPHONE), acceptLanguage: 'es' };
    const reading = readVisitor(input, NO_DATACENTERS);
    expect(visitorFields(reading, input, true)).toEqual({
      countryCode: 'US',
      region: 'US-CA',
      city: 'Monterey',
      asn: '7922',
      isp: 'Comcast Cable Communications, LLC',
      language: 'es',
      referrer: '(none)',
      ip: '73.162.0.1',
      device: 'mobile',
      platform: 'ios',
      browser: 'Mobile Safari',
      osVersion: 17,
      browserVersion: 17,
      isUnique: 'true',
      isBot: 'false',
    });
  });
});

describe('ClickRates', () => {
  it('counts clicks per address and campaign in the current minute', () => {
    const rates = new ClickRates();
    const minute = Date.UTC(2026, 10, 27, 12, 0);
    expect([1, 2, 3].map(() => rates.count('c1', '203.0.113.7', minute + 1000))).toEqual([1, 2, 3]);
    expect(rates.count('c2', '203.0.113.7', minute + 2000)).toBe(1);
    expect(rates.count('c1', '203.0.113.8', minute + 3000)).toBe(1);
    // The next minute starts again.
    expect(rates.count('c1', '203.0.113.7', minute + 60_000)).toBe(1);
  });

  it('never counts low among a million addresses', () => {
    const rates = new ClickRates();
    const now = Date.UTC(2026, 10, 27, 12, 0, 1);
    for (let index = 0; index < 1_000_000; index += 1) {
      rates.count('c', `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`, now);
    }
    const counts = Array.from({ length: 70 }, () => rates.count('c', '198.51.100.1', now));
    expect(counts.at(-1)).toBeGreaterThanOrEqual(70);
  });
});

describe('LeadUniques', () => {
  it('is unique for the first lead of an email on a campaign within a day of it', () => {
    const uniques = new LeadUniques();
    const start = Date.UTC(2026, 10, 27, 12, 0);
    expect(uniques.unique('c1', 'hash-a', start)).toBe(true);
    expect(uniques.unique('c1', 'hash-a', start + 23 * 3_600_000)).toBe(false);
    expect(uniques.unique('c2', 'hash-a', start + 1000)).toBe(true);
    expect(uniques.unique('c1', 'hash-b', start + 1000)).toBe(true);
    expect(uniques.unique('c1', 'hash-a', start + 24 * 3_600_000)).toBe(true);
  });
});
