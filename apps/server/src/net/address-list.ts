import { BlockList } from 'node:net';
import { formatIpAddress, parseAddressRule } from '@switchyard/domain';

/**
 * An address list (IPs and CIDRs, v4 and v6) as one matcher; entries are read as the dashboard validates
 * them (`parseAddressRule`, ipaddr.js), and entries it cannot read match nothing.
 */
export function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseAddressRule(entry);
    if (!parsed.ok) continue;
    const { rule } = parsed;
    list.addSubnet(formatIpAddress(rule), rule.prefix, rule.version === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}
