// Clicks answered by Node's HTTP server directly, ahead of Fastify (app.ts hands it every request first).
// A click is the one request that arrives at ad-network rates, and Fastify's work per request (router,
// request and reply objects, a child logger, hooks) cost as much as routing the click itself. The
// answer is the same as the Fastify route's in routes.ts (which `app.inject` and every other request
// reach), made by answers.ts. Anything else — HEAD (answered there as GET would be, recording nothing),
// the lander's offer link, an unknown campaign, a malformed id, a server that is shutting
// down — goes on to Fastify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'fast-querystring';
import { clientAddressReader, type TrustProxy } from '../../http/trusted-proxies.js';
import type { EngineLog, TrafficEngine } from '../engine.js';
import { AnswerBatch, answerOf, type ClickOutcome, internalErrorAnswer } from './answers.js';
import { EXTERNAL_ID } from './routes.js';

/** Answers a request and says true, or says false and leaves it to Fastify. */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

function forwardedFor(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.join(',') : header;
}

function answer(response: ServerResponse, result: ClickOutcome): void {
  const head = answerOf(result);
  response.writeHead(head.status, head.headers);
  response.end(head.body);
}

export function fastClickPath(
  engine: TrafficEngine,
  options: { trustProxy: TrustProxy; log: EngineLog; closing: () => boolean },
): FastPath {
  // The visitor's address as Fastify's proxy-addr gives it, for the same setting.
  const clientAddress = clientAddressReader(options.trustProxy, engine.noteUntrustedProxy);
  const fail = (response: ServerResponse, error: unknown) => {
    options.log.error({ err: error }, 'unexpected error');
    if (response.headersSent) {
      response.destroy();
      return;
    }
    const head = internalErrorAnswer();
    response.writeHead(head.status, head.headers);
    response.end(head.body);
  };
  const answers = new AnswerBatch<ServerResponse>(engine, answer, fail);
  return (request, response) => {
    if (request.method !== 'GET' || options.closing()) return false;
    const url = request.url ?? '';
    if (!url.startsWith('/c/')) return false;
    const question = url.indexOf('?');
    const campaignExternalId = question < 0 ? url.slice(3) : url.slice(3, question);
    if (!EXTERNAL_ID.test(campaignExternalId) || !engine.hasClickCampaign(campaignExternalId)) return false;
    const query = question < 0 || question === url.length - 1 ? {} : parseQuery(url.slice(question + 1));
    // Node's HTTP server has built request.headers already (it reads Expect on every HTTP/1.1 request).
    const headers = request.headers;
    engine
      .click({
        campaignExternalId,
        query,
        ip: clientAddress(forwardedFor(headers['x-forwarded-for']), request.socket.remoteAddress ?? ''),
        userAgent: headers['user-agent'],
        referrer: headers.referer,
        acceptLanguage: headers['accept-language'],
        cookieHeader: headers.cookie,
      })
      .then(
        (result) => answers.add(response, result),
        (error: unknown) => fail(response, error),
      );
    return true;
  };
}
