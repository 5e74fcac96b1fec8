// Outbound requests that cannot be turned against the tracker. A traffic source's postback URL
// is set by an operator; sent as it is, it could reach the tracker's own network: loopback, private and
// link-local addresses (a cloud's metadata service at 169.254.169.254), multicast. Such a URL is refused
// when it is saved (a literal address, `localhost`, or a name that resolves only to such addresses) and
// again when it is sent: the name is resolved right before connecting and the connection goes to the
// address that was checked, so a name that resolves elsewhere the second time (DNS rebinding) gains
// nothing (outbound-request.ts). SWITCHYARD_ALLOW_PRIVATE_TARGETS=true turns all this off.
import { promises as dns, type LookupAddress } from 'node:dns';
import {
  type AddressClass,
  classifyAddress,
  isPublicAddress,
  type ResourceName,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import type { Actor } from '../auth/actor.js';
import { ValidationError } from '../errors.js';
import type { RecordId, ResourceService } from './resource-routes.js';

/** Every address a host name resolves to (dns.lookup, as connecting would). Replaced in tests. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const resolveHost: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, order: 'verbatim' });

export interface TargetOptions {
  /** SWITCHYARD_ALLOW_PRIVATE_TARGETS: no check at all. */
  allowPrivateTargets: boolean;
  resolve?: ResolveHost;
}

/** How long a save waits for DNS; a name that does not resolve in time is accepted (checked when sent). */
export const SAVE_LOOKUP_TIMEOUT_MS = 2000;

const CLASS_TEXT: Record<Exclude<AddressClass, 'public'>, string> = {
  private: 'a private address',
  loopback: 'a loopback address',
  'link-local': 'a link-local address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
};

/** Why an outbound request may not go to the address `ip`, or null when it may. */
export function addressRefusal(ip: string): string | null {
  const kind = classifyAddress(ip);
  if (kind === 'public') return null;
  return `Refused: ${ip} is ${kind === null ? 'not an IP address' : CLASS_TEXT[kind]}`;
}

/** `localhost` and any name under it (RFC 6761): loopback whatever DNS says. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A URL's hostname without the brackets of an IPv6 literal. */
function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Why a request to `url` is refused before any DNS: a literal address that is not public, `localhost`, a
 * scheme other than http(s). Null when only DNS can tell. `new URL()` has already turned `2130706433` and
 * `0x7f.1` into `127.0.0.1`.
 */
export function literalRefusal(url: URL): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `Refused: ${url.protocol} is not HTTP`;
  const host = bareHost(url);
  if (classifyAddress(host) !== null) return addressRefusal(host);
  if (isLocalhostName(host)) return `Refused: ${host} is a loopback name`;
  return null;
}

/** The resolved addresses, or null when the lookup failed or took longer than `timeoutMs`. */
async function resolveWithin(
  resolve: ResolveHost,
  hostname: string,
  timeoutMs: number,
): Promise<readonly LookupAddress[] | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((done) => {
    timer = setTimeout(() => done(null), timeoutMs);
  });
  try {
    return await Promise.race([resolve(hostname).catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The save-time check of an outbound URL: why it is refused, or null. A name that does not resolve (the
 * machine may be offline) is accepted; the send-time check still applies. Macros in the path and query
 * are harmless here; one in the host was refused by the form.
 */
export async function targetRefusal(
  url: string,
  options: { resolve?: ResolveHost; timeoutMs?: number } = {},
): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null; // the form checks the shape
  }
  const literal = literalRefusal(parsed);
  if (literal !== null || classifyAddress(bareHost(parsed)) !== null) return literal;
  const addresses = await resolveWithin(
    options.resolve ?? resolveHost,
    bareHost(parsed),
    options.timeoutMs ?? SAVE_LOOKUP_TIMEOUT_MS,
  );
  if (!addresses || addresses.length === 0) return null;
  if (addresses.some((entry) => isPublicAddress(entry.address))) return null;
  return addressRefusal(addresses[0]!.address);
}

/** The postback URLs a record of `kind` sends to, by field path (`postback_events.0.postback_url`). */
function outboundUrls(kind: ResourceName, form: Record<string, unknown>): [string, string][] {
  if (kind !== 'traffic-sources' || !Array.isArray(form.postback_events)) return [];
  return form.postback_events.flatMap((entry: unknown, index) => {
    const url = (entry as { postback_url?: unknown } | null)?.postback_url;
    return typeof url === 'string' && url !== ''
      ? [[`postback_events.${index}.postback_url`, url] as [string, string]]
      : [];
  });
}

/** 400 on each field whose outbound URL is refused. */
export async function checkOutboundTargets(
  kind: ResourceName,
  form: Record<string, unknown>,
  options: TargetOptions,
): Promise<void> {
  if (options.allowPrivateTargets) return;
  const urls = outboundUrls(kind, form);
  if (urls.length === 0) return;
  const refusals = await Promise.all(
    urls.map(([, url]) => targetRefusal(url, options.resolve ? { resolve: options.resolve } : {})),
  );
  const errors: Record<string, string[]> = {};
  urls.forEach(([field], index) => {
    if (refusals[index] !== null) errors[field] = [VALIDATION_MESSAGES.privateTarget];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * `service` with its outbound URLs checked before a create or an update (traffic sources' postback URLs);
 * other kinds, or every kind when private targets are allowed, get `service` itself.
 */
export function withOutboundTargetCheck<TRecord, TForm extends Record<string, unknown>>(
  service: ResourceService<TRecord, TForm, TForm>,
  kind: ResourceName,
  options: TargetOptions,
): ResourceService<TRecord, TForm, TForm> {
  if (options.allowPrivateTargets || kind !== 'traffic-sources') return service;
  const { create, update, archive, restore } = service;
  return {
    list: (query, actor, rawQuery) => service.list(query, actor, rawQuery),
    get: (id, actor) => service.get(id, actor),
    ...(create && {
      create: async (input: TForm, actor: Actor) => {
        await checkOutboundTargets(kind, input, options);
        return create.call(service, input, actor);
      },
    }),
    ...(update && {
      update: async (id: RecordId, input: TForm, actor: Actor) => {
        await checkOutboundTargets(kind, input, options);
        return update.call(service, id, input, actor);
      },
    }),
    ...(archive && { archive: (id: RecordId, actor: Actor) => archive.call(service, id, actor) }),
    ...(restore && { restore: (id: RecordId, actor: Actor) => restore.call(service, id, actor) }),
  };
}
