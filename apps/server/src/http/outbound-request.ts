// Sending an outbound request to a checked address: the name is resolved right before
// connecting and the connection goes to the address that was checked, so a name that resolves elsewhere
// the second time (DNS rebinding) gains nothing; each redirect is checked the same way.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '@switchyard/domain';
import {
  addressRefusal,
  literalRefusal,
  type ResolveHost,
  resolveHost,
  type TargetOptions,
} from './outbound-targets.js';

/** A request refused before it was sent; `message` says why ("Refused: 10.0.0.5 is a private address"). */
export class RefusedTarget extends Error {
  readonly code = 'ERR_REFUSED_TARGET';
}

/**
 * The lookup of a checked connection: the name is resolved once, the addresses that are not public are
 * dropped, and the connection goes to what is left; nothing left refuses the request.
 */
function checkedLookup(resolve: ResolveHost, isPublic: (ip: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const wanted = addresses.filter((entry) => family === 0 || entry.family === family);
        const allowed = wanted.filter((entry) => isPublic(entry.address));
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
  /** A POST with this body (a notification to a chat or a webhook); redirects are then not followed. */
  post?: { body: string; headers: Record<string, string> };
  /** Headers sent besides the user agent (which one of them may replace). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Which resolved addresses count as public. Tests only: a second loopback address stands in for a
   * public host, so that a redirect from it to a private one can be seen refused.
   */
  isPublic?: (ip: string) => boolean;
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
 * One GET (or a POST) of an outbound URL (a postback to a traffic source, a test postback, a notification) with the target checked
 * before each connection, up to `maxRedirects` redirects, and one deadline for it all.
 */
export async function sendOutbound(url: string, options: OutboundRequestOptions): Promise<OutboundResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const lookup = options.allowPrivateTargets
    ? undefined
    : checkedLookup(options.resolve ?? resolveHost, options.isPublic ?? isPublicAddress);
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
      const answer = await get(
        target,
        controller.signal,
        lookup,
        options.bodyLimit ?? 0,
        options.headers,
        options.post,
      );
      const location = answer.headers.location;
      if (options.post || !REDIRECTS.has(answer.status) || !location || redirects >= maxRedirects) {
        return { kind: 'answered', answer };
      }
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
  extraHeaders: Readonly<Record<string, string>> = {},
  post?: { body: string; headers: Record<string, string> },
): Promise<OutboundAnswer> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: post ? 'POST' : 'GET',
        // A connection of its own: never one opened for another host or before a check.
        agent: false,
        signal,
        headers: { 'user-agent': 'Switchyard', accept: '*/*', ...extraHeaders, ...post?.headers },
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
    request.end(post?.body);
  });
}
