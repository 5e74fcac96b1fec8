import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../src/traffic/rules/weighted.js';
import { ipv4RangeSearch, ipv4Text } from '../src/traffic/visitor/addresses.js';
import { loadPlaces, placeOfIp } from '../src/traffic/visitor/places.js';

// The table of IPv4 places (place-table.ts) must answer exactly what DB-IP's file answers: the same
// addresses are looked up in the file before loadPlaces and in the table after.

const cacheDir = mkdtempSync(path.join(tmpdir(), 'switchyard-places-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/** Deterministic pseudo-random 32-bit numbers. */
function numbers(seed: number): () => number {
  const next = seededRandom(seed);
  return () => Math.floor(next() * 4_294_967_296);
}

describe('ipv4RangeSearch', () => {
  /** The last start at or before the address, by reading them all. */
  const reference = (starts: number[], address: number) => {
    let found = -1;
    starts.forEach((start, index) => {
      if (start <= address) found = index;
    });
    return found;
  };

  it.each([
    ['no ranges', []],
    ['one range from 0', [0]],
    ['one range from the middle', [0x80000000]],
    ['ranges on block edges', [0, 0xffff, 0x10000, 0x10001, 0x20000, 0xffff0000, 0xffffffff]],
    ['many ranges in one block', Array.from({ length: 300 }, (_, index) => 0x0a000000 + index * 7)],
  ])('finds the range of every address near the starts: %s', (_, starts: number[]) => {
    const search = ipv4RangeSearch(Uint32Array.from(starts));
    const addresses = [0, 1, 0xffff, 0x10000, 0x7fffffff, 0xfffffffe, 0xffffffff];
    for (const start of starts) addresses.push(start, Math.max(start - 1, 0), Math.min(start + 1, 0xffffffff));
    for (const address of addresses) expect([address, search(address)]).toEqual([address, reference(starts, address)]);
  });

  it('finds the range of 20,000 random addresses among 5,000 random ranges', () => {
    const next = numbers(3);
    const starts = [...new Set(Array.from({ length: 5000 }, next))].sort((a, b) => a - b);
    const search = ipv4RangeSearch(Uint32Array.from(starts));
    const wrong: number[] = [];
    for (let count = 0; count < 20_000; count += 1) {
      const address = next();
      if (search(address) !== reference(starts, address)) wrong.push(address);
    }
    expect(wrong).toEqual([]);
  });
});

describe('placeOfIp with the table of places', () => {
  const next = numbers(11);
  const random = Array.from({ length: 30_000 }, () => ipv4Text(next()));
  const named = ['8.8.8.8', '81.2.69.142', '168.95.1.1', '105.224.0.1', '10.0.0.1', '0.0.0.0', '255.255.255.255'];
  const addresses = [...named, ...random, '::ffff:8.8.8.8', '2a00:23c4::1', 'nonsense', ''];
  // Read in the file itself: nothing is loaded yet.
  const fromFile = addresses.map((ip) => placeOfIp(ip));

  it('builds the cache file once, and answers every address as the file does', async () => {
    const messages: string[] = [];
    await loadPlaces(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([expect.stringMatching(/^Place cache built in \d+ ms/)]);
    expect(readdirSync(cacheDir)).toEqual([expect.stringMatching(/^places-.+\.bin$/)]);
    // Most random addresses are somewhere: the comparison is not of unknowns alone.
    expect(fromFile.filter((place) => place.country !== undefined).length).toBeGreaterThan(20_000);
    const differing = addresses.filter(
      (ip, index) => JSON.stringify(placeOfIp(ip)) !== JSON.stringify(fromFile[index]),
    );
    expect(differing).toEqual([]);
    expect(placeOfIp('8.8.8.8')).toEqual({ country: 'US', region: 'US-CA', city: 'Mountain View' });
    // Each text decoded on its own: "US" is a one-byte string (V8 serializes those with the tag `"`), not
    // a piece of one string of all the texts, two-byte because some city's name is.
    const { country, city } = placeOfIp('8.8.8.8');
    expect([serialize(country)[2], serialize(city)[2]]).toEqual([0x22, 0x22]);
  });

  it('reads the file back at the next start, and rebuilds a damaged one', async () => {
    const messages: string[] = [];
    await loadPlaces(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([]);

    const [file] = readdirSync(cacheDir);
    const full = path.join(cacheDir, file!);
    const good = readFileSync(full);
    const damaged = Buffer.from(good);
    const middle = damaged.length >> 1;
    damaged[middle] = damaged[middle]! ^ 0x40;
    writeFileSync(full, damaged);
    await loadPlaces(cacheDir, (message) => messages.push(message));
    expect(messages).toEqual([
      expect.stringMatching(/damaged; rebuilding/),
      expect.stringMatching(/^Place cache built/),
    ]);
    expect(readFileSync(full).equals(good)).toBe(true);
    expect(placeOfIp('81.2.69.142')).toEqual({ country: 'GB', region: 'GB-ENG', city: 'London' });
  });
});
