import { BlockList, isIP } from 'node:net';

/** An address list (IPs and CIDRs, v4 and v6) as one matcher; entries it cannot read match nothing. */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.trim().split('/');
    const type = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : null;
    if (!type) continue;
    const prefix = bits === undefined ? (type === 'ipv4' ? 32 : 128) : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > (type === 'ipv4' ? 32 : 128)) continue;
    list.addSubnet(address, prefix, type);
  }
  return list;
}
