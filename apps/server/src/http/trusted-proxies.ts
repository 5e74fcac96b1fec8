// Which proxies' X-Forwarded-For is believed. Behind a load balancer every visitor
// arrives from the balancer's address: without trusting it, every click's country is the balancer's
// ("(none)") and geo rules send everyone to the fallback group, silently. SWITCHYARD_TRUST_PROXY says
// whom to trust — `true` (every proxy, the left-most address wins) or a list of addresses and CIDRs (the
// right-most address not on the list wins, as Fastify's proxy-addr reads it) — and a click whose header
// came from an untrusted peer is noted, so the dashboard can name the setting.
import { isIP } from 'node:net';
import { parseAddressRule } from '@switchyard/domain';
import { addressList } from '../net/address-list.js';

/** `false`, `true`, or the trusted proxies' addresses and CIDRs. */
export type TrustProxy = boolean | readonly string[];

export const TRUST_PROXY_SETTING = 'SWITCHYARD_TRUST_PROXY';

/** Reads the setting: `true`/`false`, or addresses and CIDRs separated by commas; throws on a bad entry. */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const value = (text ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!parseAddressRule(entry).ok) {
      throw new Error(
        `${TRUST_PROXY_SETTING}: "${entry}" is not an IP address or CIDR (use true, or a list such as 10.0.0.0/8,::1).`,
      );
    }
  }
  return entries;
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`, as Node reports IPv4 peers on a dual-stack socket) as IPv4. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/**
 * The visitor's address from a request's X-Forwarded-For and its socket peer; `untrusted(peer)` is told
 * when the header came from a peer that is not trusted (it is then ignored).
 */
export function clientAddressReader(
  trust: TrustProxy,
  untrusted: (peer: string) => void,
): (forwardedFor: string | undefined, peer: string) => string {
  if (trust === false) {
    return (forwardedFor, peer) => {
      if (forwardedFor) untrusted(peer);
      return peer;
    };
  }
  if (trust === true) {
    return (forwardedFor, peer) => {
      if (!forwardedFor) return peer;
      const comma = forwardedFor.indexOf(',');
      const first = (comma < 0 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
      return first || peer;
    };
  }
  // The same list matcher as an affiliate network's postback addresses.
  const list = addressList(trust);
  const trusted = (address: string) => {
    const bare = plain(address);
    const version = isIP(bare);
    return version !== 0 && list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
  };
  return (forwardedFor, peer) => {
    if (!forwardedFor) return peer;
    if (!trusted(peer)) {
      untrusted(peer);
      return peer;
    }
    const hops = forwardedFor.split(',');
    let address = peer;
    for (let index = hops.length - 1; index >= 0 && trusted(address); index -= 1) {
      const hop = hops[index]!.trim();
      if (!hop) break;
      address = hop;
    }
    return address;
  };
}
