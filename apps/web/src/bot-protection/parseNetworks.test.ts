import { describe, expect, it } from 'vitest';
import { parseNetworks } from './parseNetworks';

describe('parseNetworks', () => {
  it('reads the usual ways a list of networks is written', () => {
    const text =
      'AS16509 Amazon\n16509,Amazon AWS\nas14061;DigitalOcean\n24940\tHetzner Online\n\n8075\n15169, "Google, LLC"';
    expect(parseNetworks(text)).toEqual({
      networks: [
        { asn: 16509, name: 'Amazon' },
        { asn: 16509, name: 'Amazon AWS' },
        { asn: 14061, name: 'DigitalOcean' },
        { asn: 24940, name: 'Hetzner Online' },
        { asn: 8075, name: '' },
        { asn: 15169, name: 'Google, LLC' },
      ],
      unreadLines: [],
    });
  });

  it('names the lines it cannot read, and numbers past the largest ASN', () => {
    expect(parseNetworks('Amazon\nAS16509 Amazon\nAS99999999999 Too big\n12ab Mixed')).toEqual({
      networks: [{ asn: 16509, name: 'Amazon' }],
      unreadLines: [1, 3, 4],
    });
  });
});
