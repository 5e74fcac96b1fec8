// Outbound requests that cannot be turned against the tracker (issue 18). A traffic source's postback URL
// is set by an operator; sent as it is, it could reach the tracker's own network: loopback, private and
// link-local addresses (a cloud's metadata service at 169.254.169.254), multicast. Such a URL is refused
// when it is saved (a literal address, `localhost`, or a name that resolves only to such addresses) and
// again when it is sent: the name is resolved right before connecting and the connection goes to the
// address that was checked, so a name that resolves elsewhere the second time (DNS rebinding) gains
// nothing. Each redirect is checked the same way. SWITCHYARD_ALLOW_PRIVATE_TARGETS=true turns all this off.
import { promises as dns, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  type AddressClass,
  classifyAddress,
  isPublicAddress,
  type ResourceName,
  VALIDATION_MESSAGES,
} from '@switchyard/domain';
import type { RecordId, ResourceService } from '../api/resource-routes.js';
import type { Actor } from '../auth/actor.js';
import { ValidationError } from '../errors.js';

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
function literalRefusal(url: URL): string | null {
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

/** A request refused before it was sent; `message` says why ("Refused: 10.0.0.5 is a private address"). */
export class RefusedTarget extends Error {
  readonly code = 'ERR_REFUSED_TARGET';
}

/**
 * The lookup of a checked connection: the name is resolved once, the addresses that are not public are
 * dropped, and the connection goes to what is left; nothing left refuses the request.
 */
function checkedLookup(resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const wanted = addresses.filter((entry) => family === 0 || entry.family === family);
        const allowed = wanted.filter((entry) => isPublicAddress(entry.address));
        if (allowed.length === 0) {
          const first = wanted[0]?.address;
          const reason = first ? addressRefusal(first) : `Refused: ${hostname} has no address`;
          callback(new RefusedTarget(reason ?? `Refused: ${hostname}`), '', 0);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export interface OutboundRequestOptions extends TargetOptions {
  /** For the whole exchange, redirects included. */
  timeoutMs: number;
  /** Redirects followed, each checked like the first request. */
  maxRedirects?: number;
  /** Characters of the answer's body kept; 0 reads none. */
  bodyLimit?: number;
}

export const MAX_REDIRECTS = 3;

export interface OutboundAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The URL that answered (after redirects). */
  url: string;
}

export type OutboundResult =
  | { kind: 'answered'; answer: OutboundAnswer }
  /** Not sent: the target is not public. */
  | { kind: 'refused'; reason: string }
  /** Sent, but no answer: network error or timeout. */
  | { kind: 'failed'; error: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * One GET of an outbound URL (a postback to a traffic source, a test postback) with the target checked
 * before each connection, up to `maxRedirects` redirects, and one deadline for it all.
 */
export async function sendOutbound(url: string, options: OutboundRequestOptions): Promise<OutboundResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const lookup = options.allowPrivateTargets ? undefined : checkedLookup(options.resolve ?? resolveHost);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  try {
    let current = url;
    for (let redirects = 0; ; redirects += 1) {
      let target: URL;
      try {
        target = new URL(current);
      } catch {
        return { kind: 'failed', error: `Invalid URL: ${current.slice(0, 200)}` };
      }
      const refusal = options.allowPrivateTargets ? null : literalRefusal(target);
      if (refusal) return { kind: 'refused', reason: refusal };
      const answer = await get(target, controller.signal, lookup, options.bodyLimit ?? 0);
      const location = answer.headers.location;
      if (!REDIRECTS.has(answer.status) || !location || redirects >= maxRedirects) return { kind: 'answered', answer };
      try {
        current = new URL(location, target).href;
      } catch {
        return { kind: 'answered', answer };
      }
    }
  } catch (error) {
    if (error instanceof RefusedTarget) return { kind: 'refused', reason: error.message };
    if (controller.signal.aborted) return { kind: 'failed', error: `No answer within ${options.timeoutMs} ms` };
    return { kind: 'failed', error: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
  } finally {
    clearTimeout(timer);
  }
}

function get(
  target: URL,
  signal: AbortSignal,
  lookup: LookupFunction | undefined,
  bodyLimit: number,
): Promise<OutboundAnswer> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'GET',
        // A connection of its own: never one opened for another host or before a check.
        agent: false,
        signal,
        headers: { 'user-agent': 'Switchyard', accept: '*/*' },
        ...(lookup ? { lookup } : {}),
      },
      (response) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        // UTF-8 takes at most 4 bytes a character.
        const byteLimit = bodyLimit * 4;
        const finish = () => {
          resolve({
            status: response.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8').slice(0, bodyLimit),
            url: target.href,
          });
          // The rest is not needed; release the connection.
          response.destroy();
        };
        if (byteLimit === 0) {
          finish();
          return;
        }
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= byteLimit) finish();
        });
        response.on('end', finish);
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}
