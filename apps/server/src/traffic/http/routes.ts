// The public tracker endpoints (no bearer token; they live outside /api).
import type { PostbackOutcome } from '@switchyard/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '../../errors.js';
import type { ClickRequest, TrafficEngine } from '../engine.js';
import { readPostbackParams } from '../rules/postback-rules.js';
import { answerOf, keptOrUnavailable } from './answers.js';
import { parseLeadInput } from './lead-input.js';

export const EXTERNAL_ID = /^[A-Za-z0-9_-]{1,64}$/;
const CLICK_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A hosted lander's `{offer:N}`: 1 to 99. */
const OFFER_POSITION = /^[1-9][0-9]?$/;
/** A workspace's postback key: URL-safe, 22 characters or more. */
const POSTBACK_KEY = /^[A-Za-z0-9_-]{22,128}$/;

type CampaignParams = { Params: { campaign: string } };

/** The field a refused postback's 400 names, by outcome (else the answer's own). */
const REFUSED_FIELD: Partial<Record<PostbackOutcome, string>> = {
  missing_click_id: 'clickid',
  invalid_payout: 'payout',
  unknown_currency: 'currency',
  unknown_status: 'status',
};

/** Log levels below `warn`, at which Fastify writes two access-log lines per request. */
const CHATTY_LEVELS = new Set(['trace', 'debug', 'info']);

export function trafficRoutes(app: FastifyInstance, engine: TrafficEngine): void {
  // Clicks are not access-logged: each one is a row in tracker_clicks, and at click rates two log lines
  // per visitor would cost more than the click. Warnings and errors are still logged. (Left to inherit
  // when the server logs warnings and up anyway: a route level makes pino rebuild each request's logger.)
  const clickRoute: { logLevel?: 'warn' } = CHATTY_LEVELS.has(app.log.level) ? { logLevel: 'warn' } : {};

  // Over HTTP most clicks are answered before they reach Fastify (fast-click.ts), with the same answer;
  // HEAD goes on to Fastify, and here.
  const clickHandler = (look: boolean) => async (request: FastifyRequest<CampaignParams>, reply: FastifyReply) => {
    const { campaign } = request.params;
    if (!EXTERNAL_ID.test(campaign)) throw new NotFoundError();
    const click: ClickRequest = {
      campaignExternalId: campaign,
      query: (request.query ?? {}) as Record<string, unknown>,
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      referrer: request.headers.referer,
      acceptLanguage: request.headers['accept-language'],
      cookieHeader: request.headers.cookie,
    };
    const answer = look ? await engine.lookAtClick(click) : await engine.click(click);
    if (answer.kind === 'not-found') throw new NotFoundError();
    const head = answerOf(look ? answer : keptOrUnavailable(engine, answer));
    reply.code(head.status);
    for (let index = 0; index < head.headers.length; index += 2) {
      const name = head.headers[index]!;
      // Fastify adds each Set-Cookie to those already set; it counts the body's length itself. A look
      // sets no cookie: it would mark as seen a visitor whose click was never recorded.
      if (name !== 'content-length' && !(look && name === 'set-cookie')) reply.header(name, head.headers[index + 1]);
    }
    return reply.send(head.body);
  };
  // Link checkers and mail scanners send HEAD. It is answered as GET would be, but records
  // nothing and takes no cap (Fastify's own HEAD route would run the GET handler).
  app.get<CampaignParams>('/c/:campaign', { ...clickRoute, exposeHeadRoute: false }, clickHandler(false));
  app.head<CampaignParams>('/c/:campaign', clickRoute, clickHandler(true));

  // The lander's offer link. A GET records that the click went on from its lander, and its
  // 302 goes out once that is kept; a HEAD, or a GET without an agent or with a bot's (a link checker,
  // a mail scanner), is answered alike and records nothing.
  // `offer=N` (a hosted lander's `{offer:N}`) asks for the Nth offer of the click's path.
  type OfferRequest = FastifyRequest<CampaignParams & { Querystring: { clickid?: unknown; offer?: unknown } }>;
  const offerHandler = (look: boolean) => async (request: OfferRequest, reply: FastifyReply) => {
    const { campaign } = request.params;
    const clickId = request.query.clickid;
    const position = request.query.offer;
    if (
      !EXTERNAL_ID.test(campaign) ||
      typeof clickId !== 'string' ||
      !CLICK_ID.test(clickId) ||
      (position !== undefined && (typeof position !== 'string' || !OFFER_POSITION.test(position)))
    ) {
      throw new NotFoundError();
    }
    const hop = await engine.offerForClick(
      campaign,
      clickId,
      !look,
      request.headers['user-agent'],
      position === undefined ? 1 : Number(position),
    );
    if (!hop) throw new NotFoundError();
    if (!engine.kept(hop.event)) throw new ServiceUnavailableError();
    reply.header('cache-control', 'no-store');
    return reply.redirect(hop.location, 302);
  };
  app.get('/c/:campaign/offer', { ...clickRoute, exposeHeadRoute: false }, offerHandler(false));
  app.head('/c/:campaign/offer', clickRoute, offerHandler(true));

  app.post<CampaignParams>('/v1/campaigns/:campaign/leads', async (request) => {
    const { campaign } = request.params;
    if (!EXTERNAL_ID.test(campaign)) throw new NotFoundError();
    const apiKey = request.headers['x-api-key'];
    const answer = await engine.lead(campaign, typeof apiKey === 'string' ? apiKey : undefined, () =>
      parseLeadInput(request.body),
    );
    if (answer.kind === 'not-found') throw new NotFoundError();
    if (answer.kind === 'unauthorized') throw new UnauthorizedError();
    // Answered only once the lead is kept in the journal.
    if (!engine.kept(answer.event)) throw new ServiceUnavailableError();
    return answer.body;
  });

  // Postbacks from affiliate networks: GET with a query string, or POST with a query string, a form or
  // JSON, at `/{key}/postback`, or Binom's `/{key}/click.php`. Without the workspace's key they are
  // refused and logged. The form parser lives in this scope only.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
      },
    );
    const handler = async (request: FastifyRequest<{ Params: { key?: string } }>, reply: FastifyReply) => {
      const key = request.params.key;
      const answer = await engine.postback({
        params: readPostbackParams(request.query, request.body),
        ip: request.ip,
        // A key of the wrong shape is a wrong key (never looked up), not a missing one.
        caller: { key: key === undefined ? undefined : POSTBACK_KEY.test(key) ? key : '' },
      });
      reply.header('cache-control', 'no-store');
      if (answer.status === 200) {
        // A duplicate is acknowledged like the first one (Contract), so networks stop resending.
        return reply.type('text/plain; charset=utf-8').send('OK');
      }
      if (answer.status === 400) {
        throw new ValidationError({
          [answer.field ?? REFUSED_FIELD[answer.outcome] ?? 'currency']: [answer.reason ?? 'Invalid'],
        });
      }
      if (answer.status === 403) throw new ForbiddenError(undefined, answer.reason ?? undefined);
      throw new NotFoundError();
    };
    // A HEAD (a link checker's) counts nothing: no conversion, no log line. It is answered as a
    // URL that exists, without reading the key, so it tells nobody which keys are real.
    const look = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send();
    for (const url of ['/:key/postback', '/postback', '/:key/click.php', '/click.php']) {
      scope.route({ method: ['GET', 'POST'], url, handler, exposeHeadRoute: false });
      scope.route({ method: 'HEAD', url, handler: look });
    }
  });
}
