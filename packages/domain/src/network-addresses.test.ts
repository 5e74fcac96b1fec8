import { describe, expect, it } from 'vitest';
import {
  type AddressRule,
  classifyAddress,
  formatIpAddress,
  isPublicAddress,
  matchesAddressRules,
  parseAddressRule,
  parseIpAddress,
} from './network-addresses.js';

/** The hostname WHATWG URL parsing leaves, as the server checks it. */
const hostnameOf = (url: string) => new URL(url).hostname;

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.255', 'private'],
    ['198.18.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['203.0.113.5', 'reserved'],
    ['8.8.8.8', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['100.128.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['1.1.1.1', 'public'],
  ])('IPv4 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.5', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:808:808::1', 'public'],
    ['::127.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
  ])('IPv6 %s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('classifies the forms URL parsing normalises', () => {
    expect(hostnameOf('http://2130706433/')).toBe('127.0.0.1');
    expect(classifyAddress(hostnameOf('http://2130706433/'))).toBe('loopback');
    expect(classifyAddress(hostnameOf('http://0x7f.1/'))).toBe('loopback');
    expect(classifyAddress(hostnameOf('http://0177.0.0.1/'))).toBe('loopback');
    expect(classifyAddress(hostnameOf('http://0xa9fea9fe/'))).toBe('link-local');
    expect(classifyAddress(hostnameOf('http://[::ffff:127.0.0.1]/'))).toBe('loopback');
    expect(classifyAddress(hostnameOf('http://[0:0:0:0:0:ffff:a00:1]:8080/'))).toBe('private');
    expect(classifyAddress(hostnameOf('http://[fe80::1]/'))).toBe('link-local');
  });

  it('is null for host names and anything not an address', () => {
    for (const text of ['example.com', 'localhost', '', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.4 x']) {
      expect(classifyAddress(text), text).toBeNull();
    }
    for (const text of ['1:2:3:4:5:6:7:8:9', '1::2::3', 'fe80::1%eth0', 'g::1', '12345::', ':::', '1:2:3:4:5:6:7']) {
      expect(classifyAddress(text), text).toBeNull();
    }
    // ipaddr.js reads these; an IPv6 literal's IPv4 tail is dotted decimal only.
    for (const text of ['::ffff:010.0.0.1', '::ffff:0x7f.0.0.1', '::ffff:127.1', 'fe80::1%1']) {
      expect(classifyAddress(text), text).toBeNull();
    }
    expect(classifyAddress('[10.0.0.1]')).toBeNull();
  });

  it('isPublicAddress is true only for a public address literal', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('10.0.0.1')).toBe(false);
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('parseIpAddress and formatIpAddress', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1'],
    ['::', '::'],
    ['::1', '::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:0:2:3:4:5:6:7', '1:0:2:3:4:5:6:7'],
    ['::ffff:1.2.3.4', '::ffff:102:304'],
    // IPv4-compatible, not IPv4-mapped (ipaddr.js alone would read it as ::ffff:1.2.3.4).
    ['::1.2.3.4', '::102:304'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['fe80::', 'fe80::'],
  ])('%s is written %s', (text, written) => {
    const address = parseIpAddress(text);
    expect(address).not.toBeNull();
    expect(formatIpAddress(address!)).toBe(written);
  });
});

describe('address rules', () => {
  const rules = (...texts: string[]): AddressRule[] =>
    texts.map((text) => {
      const parsed = parseAddressRule(text);
      if (!parsed.ok) throw new Error(`not a rule: ${text}`);
      return parsed.rule;
    });

  it.each([
    ['203.0.113.7', '203.0.113.7', 32],
    [' 10.0.0.0/8 ', '10.0.0.0/8', 8],
    ['10.1.2.3/8', '10.0.0.0/8', 8],
    ['0.0.0.0/0', '0.0.0.0/0', 0],
    ['2001:db8::/32', '2001:db8::/32', 32],
    ['2001:DB8:1:2::5/64', '2001:db8:1:2::/64', 64],
    ['::1', '::1', 128],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8', 8],
    ['::ffff:203.0.113.7', '203.0.113.7', 32],
  ])('%s reads as %s', (text, written, prefix) => {
    const parsed = parseAddressRule(text);
    expect(parsed).toMatchObject({ ok: true, rule: { text: written, prefix } });
  });

  it.each([
    '',
    'example.com',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/08',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '2001:db8::/129',
    '[::1]',
    '256.0.0.0/8',
    '10.0.0.0/a',
  ])('refuses %j', (text) => {
    expect(parseAddressRule(text)).toEqual({ ok: false });
  });

  it('matches addresses in a range or equal to an address', () => {
    const list = rules('10.0.0.0/8', '203.0.113.7', '2001:db8::/32', '192.168.4.0/22');
    expect(matchesAddressRules('10.200.3.4', list)).toBe(true);
    expect(matchesAddressRules('11.0.0.1', list)).toBe(false);
    expect(matchesAddressRules('203.0.113.7', list)).toBe(true);
    expect(matchesAddressRules('203.0.113.8', list)).toBe(false);
    expect(matchesAddressRules('192.168.7.255', list)).toBe(true);
    expect(matchesAddressRules('192.168.8.0', list)).toBe(false);
    expect(matchesAddressRules('2001:db8:ffff::1', list)).toBe(true);
    expect(matchesAddressRules('2001:db9::1', list)).toBe(false);
  });

  it('matches an IPv4-mapped client address against IPv4 rules', () => {
    const list = rules('203.0.113.0/24');
    expect(matchesAddressRules('::ffff:203.0.113.50', list)).toBe(true);
    expect(matchesAddressRules('::ffff:cb00:7132', list)).toBe(true);
    expect(matchesAddressRules('::ffff:203.0.114.1', list)).toBe(false);
  });

  it('keeps IPv4 and IPv6 rules apart, and matches nothing that is not an address', () => {
    expect(matchesAddressRules('::', rules('0.0.0.0/0'))).toBe(false);
    expect(matchesAddressRules('8.8.8.8', rules('::/0'))).toBe(false);
    expect(matchesAddressRules('8.8.8.8', rules('0.0.0.0/0'))).toBe(true);
    expect(matchesAddressRules('not an ip', rules('0.0.0.0/0', '::/0'))).toBe(false);
    expect(matchesAddressRules('10.0.0.1', [])).toBe(false);
  });
});
