// Which proxies' X-Forwarded-For is believed. Behind a load balancer every visitor
// arrives from the balancer's address: without trusting it, every click's country is the balancer's
// ("(none)") and geo rules send everyone to the fallback group, silently. SWITCHYARD_TRUST_PROXY says
// whom to trust — `true` (every proxy, the left-most address wins) or a list of addresses and CIDRs (the
// right-most address not on the list wins, as Fastify's proxy-addr reads it) — and a click whose header
// came from an untrusted peer is noted, so the dashboard can name the setting.
import type { IncomingMessage } from 'node:http';
import proxyaddr from '@fastify/proxy-addr';
import { parseAddressRule } from '@switchyard/domain';

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

/**
 * The list as proxy-addr's entries: each entry written as `parseAddressRule` reads it (entries it cannot
 * read are left out, as before), and a /0 as its two /1 halves, since proxy-addr refuses a prefix of 0.
 */
function proxyAddrEntries(list: readonly string[]): string[] {
  const entries: string[] = [];
  for (const entry of list) {
    const parsed = parseAddressRule(entry);
    if (!parsed.ok) continue;
    const { rule } = parsed;
    if (rule.prefix > 0) entries.push(rule.text);
    else if (rule.version === 4) entries.push('0.0.0.0/1', '128.0.0.0/1');
    else entries.push('::/1', '8000::/1');
  }
  return entries;
}

const trustEveryProxy = () => true;

/**
 * The visitor's address from a request's X-Forwarded-For and its socket peer; `untrusted(peer)` is told
 * when the header came from a peer that is not trusted (it is then ignored). proxy-addr (Fastify's fork
 * of Express's) walks the header from the right while each address is a trusted proxy.
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
  const trusted = trust === true ? trustEveryProxy : proxyaddr.compile(proxyAddrEntries(trust));
  return (forwardedFor, peer) => {
    if (!forwardedFor) return peer;
    if (!trusted(peer, 0)) {
      untrusted(peer);
      return peer;
    }
    // proxy-addr reads only these two fields of the request.
    const request = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer } };
    return proxyaddr(request as unknown as IncomingMessage, trusted);
  };
}
