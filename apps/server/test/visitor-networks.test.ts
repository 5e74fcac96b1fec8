import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_DATACENTER_ASNS, REGIONS } from '@switchyard/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { crawlerOfIp } from '../src/traffic/visitor/crawlers.js';
import { loadNetworks, networkOfIp } from '../src/traffic/visitor/networks.js';
import { placeOfIp, regionNameKey } from '../src/traffic/visitor/places.js';

// Real addresses, with what the shipped data (DB-IP City Lite, @ip-location-db/asn, the crawler lists)
// says of them. An upgrade of those packages may move an address: check it with placeOfIp and update.

const cacheDir = mkdtempSync(path.join(tmpdir(), 'switchyard-asn-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const PLACES: Array<[string, string, string]> = [
  ['8.8.8.8', 'US-CA', 'Mountain View'],
  ['24.5.0.1', 'US-CA', 'Sunnyvale'], // Comcast
  ['73.0.0.1', 'US-FL', 'Pompano Beach'], // Comcast
  ['81.2.69.142', 'GB-ENG', 'London'], // Andrews & Arnold
  ['212.58.244.1', 'GB-ENG', 'London'], // BBC
  ['141.20.1.1', 'DE-BE', 'Berlin (Bezirk Mitte)'], // DFN
  ['80.156.55.1', 'DE-BY', 'Nuremberg'], // Deutsche Telekom; "Bavaria" through CLDR's English names
  ['195.50.140.1', 'DE-HE', 'Frankfurt am Main'], // Vodafone
  // Regions without an ISO code (Taiwan's province, Hong Kong's districts) fall back to the key.
  ['168.95.1.1', 'TW:taiwan', 'Taipei'], // Chunghwa Telecom
  ['203.198.0.1', 'HK:central and western', 'Central'], // PCCW
  ['2a00:23c4::1', 'GB-ENG', 'London'], // BT
  ['2a02:8108::1', 'DE-BE', 'Berlin (Bezirk Tempelhof-Schoneberg)'], // Vodafone
  ['2003::1', 'DE-NW', 'Bonn (Gronau)'], // Deutsche Telekom
  ['2600:1700::1', 'US-MI', 'Detroit'], // AT&T
  ['2001:4860:4860::8888', 'CA-QC', 'Montreal'],
  ['::ffff:8.8.8.8', 'US-CA', 'Mountain View'],
  ['::FFFF:8.8.8.8', 'US-CA', 'Mountain View'],
  ['::ffff:808:808', 'US-CA', 'Mountain View'],
  ['105.224.0.1', 'ZA-GP', 'Pretoria'], // ISO's code, not the ZA-GT country-region-data still has
  ['78.56.0.1', 'LT-VL', 'Vilnius'], // the county (first level), not the city municipality LT-58
];

describe('placeOfIp', () => {
  it.each(PLACES)('%s is in %s, %s', (ip, region, city) => {
    // Region keys start with the country, as ISO 3166-2 codes and regionNameKey's keys both do.
    expect(placeOfIp(ip)).toEqual({ country: region.slice(0, 2), region, city });
  });

  it('reports codes the rule builder offers', () => {
    const offered = new Set(REGIONS.map((region) => region.value));
    for (const [, region] of PLACES) if (!region.includes(':')) expect(offered).toContain(region);
  });

  it.each([
    '10.0.0.1',
    '192.168.1.1',
    '127.0.0.1',
    '::1',
    'fe80::1',
    '2001:db8::1',
    '',
    undefined,
    'garbage',
    '8.8.8',
    '8.8.8.256',
    '08.8.8.8',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '::ffff:8.8.8.8.8',
  ])('%j has no place', (ip) => {
    expect(placeOfIp(ip)).toEqual({ country: undefined, region: undefined, city: undefined });
  });
});

describe('regionNameKey', () => {
  it.each([
    ['de', 'Bavaria', 'DE:bavaria'],
    ['FR', 'Île-de-France', 'FR:ile de france'],
    ['RU', 'Moscow Oblast', 'RU:moscow'],
    ['SA', 'Riyadh Region', 'SA:riyadh'],
    ['US', 'St. Louis County', 'US:saint louis'],
    ['CI', "Côte d'Ivoire", 'CI:cote divoire'],
    ['DK', 'Capital Region', 'DK:capital region'], // only kind words: they stay
  ])('%s %s is %s', (country, name, key) => {
    expect(regionNameKey(country, name)).toBe(key);
  });

  it('keeps a city apart from the region around it that shares its name', () => {
    expect(placeOfIp('77.88.55.88').region).toBe('RU-MOW'); // Moscow (Yandex)
    expect(placeOfIp('2.57.37.1').region).toBe('RU-MOS'); // Moscow Oblast
  });
});

describe('networkOfIp', () => {
  it('knows nothing before the table is loaded', () => {
    expect(networkOfIp('8.8.8.8')).toEqual({ asn: undefined, isp: undefined });
  });

  it('builds the cache file once and reads it back after', async () => {
    const messages: string[] = [];
    await loadNetworks(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([expect.stringMatching(/^ASN cache built in \d+ ms/)]);
    const files = readdirSync(cacheDir);
    expect(files).toEqual([expect.stringMatching(/^asn-.+\.bin$/)]);

    messages.length = 0;
    await loadNetworks(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([]);
  });

  it.each([
    ['8.8.8.8', 15169, 'Google LLC'],
    ['1.1.1.1', 13335, 'Cloudflare, Inc.'],
    ['81.2.69.142', 20712, 'Andrews & Arnold Ltd'],
    ['80.156.55.1', 3320, 'Deutsche Telekom AG'],
    ['73.0.0.1', 7922, 'Comcast Cable Communications, LLC'],
    ['2001:4860:4860::8888', 15169, 'Google LLC'],
    ['2a00:23c4::1', 5400, 'British Telecommunications PLC'],
    ['2003::1', 3320, 'Deutsche Telekom AG'],
    ['::ffff:8.8.8.8', 15169, 'Google LLC'],
  ])('%s is AS%i, %s', (ip, asn, isp) => {
    expect(networkOfIp(ip)).toEqual({ asn, isp });
  });

  it.each(['10.0.0.1', '192.168.0.1', '::1', '', undefined, 'nonsense'])('%j has no network', (ip) => {
    expect(networkOfIp(ip)).toEqual({ asn: undefined, isp: undefined });
  });

  it('rebuilds a deleted cache file', async () => {
    const [file] = readdirSync(cacheDir);
    rmSync(path.join(cacheDir, file!));
    const messages: string[] = [];
    await loadNetworks(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([expect.stringMatching(/^ASN cache built/)]);
    expect(existsSync(path.join(cacheDir, file!))).toBe(true);
    expect(networkOfIp('8.8.8.8').asn).toBe(15169);
  });

  it.each([
    ['a flipped byte', (bytes: Buffer) => bytes.fill(0x55, bytes.length - 40, bytes.length - 39)],
    ['a cut file', (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ['an empty file', () => Buffer.alloc(0)],
  ])('rebuilds a damaged cache file: %s', async (_, damage) => {
    const [file] = readdirSync(cacheDir);
    const full = path.join(cacheDir, file!);
    const good = readFileSync(full);
    writeFileSync(full, damage(Buffer.from(good)));
    const messages: string[] = [];
    await loadNetworks(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([expect.stringMatching(/damaged; rebuilding/), expect.stringMatching(/^ASN cache built/)]);
    expect(readFileSync(full).equals(good)).toBe(true);
    expect(networkOfIp('81.2.69.142')).toEqual({ asn: 20712, isp: 'Andrews & Arnold Ltd' });
  });

  it('removes the caches of other package versions', async () => {
    writeFileSync(path.join(cacheDir, 'asn-0.0.1.bin'), 'old');
    const [current] = readdirSync(cacheDir).filter((name) => name !== 'asn-0.0.1.bin');
    rmSync(path.join(cacheDir, current!));
    await loadNetworks(cacheDir);
    expect(readdirSync(cacheDir)).toEqual([current]);
  });

  it('answers even when the cache cannot be written', async () => {
    const blocked = path.join(cacheDir, 'not-a-directory');
    writeFileSync(blocked, '');
    const messages: string[] = [];
    await loadNetworks(path.join(blocked, 'cache'), (message) => messages.push(message));
    expect(messages).toEqual([
      expect.stringMatching(/^ASN cache built/),
      expect.stringMatching(/could not be written/),
    ]);
    expect(networkOfIp('2003::1')).toEqual({ asn: 3320, isp: 'Deutsche Telekom AG' });
    rmSync(blocked);
  });
});

describe('crawlerOfIp', () => {
  it.each([
    ['66.249.66.1', 'Googlebot'],
    ['66.249.79.1', 'Googlebot'],
    ['192.178.5.10', 'Googlebot'],
    ['2001:4860:4801:10::1', 'Googlebot'],
    ['::ffff:66.249.66.1', 'Googlebot'],
    ['157.55.39.1', 'Bingbot'],
    ['40.77.167.10', 'Bingbot'],
    ['40.77.191.255', 'Bingbot'], // the last address of 40.77.188.0/22
    ['17.241.208.170', 'Applebot'],
    ['20.191.45.212', 'DuckDuckBot'],
  ])('%s is %s', (ip, crawler) => {
    expect(crawlerOfIp(ip)).toBe(crawler);
  });

  it.each([
    '8.8.8.8',
    '66.249.67.100', // Google, but no published crawler range
    '40.77.192.0', // just past Bingbot's /22
    '2001:4860:4801:11::1',
    '20.191.45.213',
    '10.0.0.1',
    '',
    undefined,
    'Googlebot',
  ])('%j is no crawler', (ip) => {
    expect(crawlerOfIp(ip)).toBeUndefined();
  });
});

describe('DEFAULT_DATACENTER_ASNS', () => {
  it('names the big clouds and hosters once each, and no CDN that relays people', () => {
    const asns = DEFAULT_DATACENTER_ASNS.map((entry) => entry.asn);
    expect(new Set(asns).size).toBe(asns.length);
    for (const asn of [16509, 14618, 8075, 396982, 15169, 14061, 24940, 16276, 63949, 20473, 51167]) {
      expect(asns).toContain(asn);
    }
    for (const asn of [13335, 20940, 54113, 16591, 7922, 3320]) expect(asns).not.toContain(asn);
    expect(DEFAULT_DATACENTER_ASNS.every((entry) => entry.name.trim() !== '')).toBe(true);
  });
});
