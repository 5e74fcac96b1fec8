// The public doors of the redirect modes' second step and of tracking without a redirect:
// - `GET /c/{campaign}/go?clickid=…`: `double_meta`'s second page, or `remote`'s fetched target;
// - `GET /{campaign}/t.js`: the tracking script (tracking-script.ts);
// - `POST /c/{campaign}/visit`: the script's click, from a page whose origin the campaign allows (CORS
//   with credentials, so the visitor's cookie is read and set as on a redirect click);
// - `POST /v1/clicks`: a lander server's click, with the campaign's click token; only such an
//   authenticated call may say which address the visitor has.

import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { offerLinkPath } from '@switchyard/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { NotFoundError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '../../errors.js';
import { parseInput } from '../../http/parse.js';
import { clickTokenHash } from '../../store/click-tokens.js';
import { CLICK_TEXT_LIMITS } from '../click.js';
import type { ClickAnswer, ClickRequest, TrafficEngine } from '../engine.js';
import { type AnswerHead, keptOrUnavailable, pageAnswer } from './answers.js';
import { isWebUrl } from './pages.js';
import { fallbackAnswer, fetchRemote } from './remote-target.js';
import { EXTERNAL_ID } from './routes.js';
import { TRACKING_SCRIPT } from './tracking-script.js';

const CLICK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const BODY_LIMIT = 64 * 1024;

type CampaignParams = { Params: { campaign: string } };

function send(reply: FastifyReply, head: AnswerHead): FastifyReply {
  reply.code(head.status);
  for (let index = 0; index < head.headers.length; index += 2) {
    const name = head.headers[index]!;
    if (name !== 'content-length') reply.header(name, head.headers[index + 1]);
  }
  return reply.send(head.body);
}

/** A page's query as a click reads it: each name with its value, or its values when repeated. */
function queryOf(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

/** What a direct click answers: its id, the offer chosen, and the landing page's link to it. */
function clickBody(request: FastifyRequest, result: ClickAnswer, campaign: string) {
  if (result.kind !== 'redirect' && result.kind !== 'no-route') return null;
  const origin = `${request.protocol}://${request.host}`;
  const routed = result.kind === 'redirect';
  return {
    click_id: result.clickId,
    offer_url: routed ? result.location : null,
    offer_link: routed ? origin + offerLinkPath(campaign, result.clickId) : null,
  };
}

const ZVisit = z.object({ url: z.string().max(CLICK_TEXT_LIMITS.referrer) });

const ZServerClick = z.object({
  campaign: z.string().regex(EXTERNAL_ID),
  ip: z.string().refine((value) => isIP(value) !== 0, { error: 'Not an IP address' }),
  user_agent: z.string().max(CLICK_TEXT_LIMITS.userAgent).optional(),
  referrer: z.string().max(CLICK_TEXT_LIMITS.referrer).optional(),
  accept_language: z.string().max(256).optional(),
  /** The visitor's query on the landing page: each parameter's value, or values. */
  query: z.record(z.string().max(64), z.union([z.string(), z.array(z.string()).max(20)])).default({}),
  /** The visitor's Cookie header as the lander got it (the tracker's cookies, if the lander keeps them). */
  cookie: z.string().max(8192).optional(),
});

function sameToken(token: string, hash: Buffer | null): boolean {
  if (!hash) return false;
  const given = Buffer.from(clickTokenHash(token), 'hex');
  return given.length === hash.length && timingSafeEqual(given, hash);
}

export function directRoutes(app: FastifyInstance, engine: TrafficEngine): void {
  // No HEAD: a link checker's look must not make the tracker fetch a remote target.
  app.get<CampaignParams & { Querystring: { clickid?: unknown } }>(
    '/c/:campaign/go',
    { exposeHeadRoute: false },
    async (request, reply) => {
      const { campaign } = request.params;
      const clickId = request.query.clickid;
      if (!EXTERNAL_ID.test(campaign) || typeof clickId !== 'string' || !CLICK_ID.test(clickId)) {
        throw new NotFoundError();
      }
      const hop = await engine.hopForClick(campaign, clickId);
      if (!hop || !isWebUrl(hop.location)) throw new NotFoundError();
      if (hop.mode === 'remote') {
        const served = await fetchRemote(
          hop.location,
          { userAgent: request.headers['user-agent'], acceptLanguage: request.headers['accept-language'] },
          engine.remote,
        );
        if (served.kind === 'served') return send(reply, served.head);
        request.log.warn({ campaign, reason: served.reason }, 'remote target not served; fallback');
        const fallback = hop.fallback && isWebUrl(hop.fallback) ? hop.fallback : hop.location;
        return send(reply, fallbackAnswer(fallback));
      }
      // `double_meta`'s second page; a click whose path changed mode since goes as the mode says now.
      if (hop.mode === 'double_meta') return send(reply, pageAnswer('blank_referrer', hop.location, []));
      if (hop.mode === '302' || hop.mode === '301' || hop.mode === '303' || hop.mode === '307') {
        reply.header('cache-control', 'no-store');
        return reply.redirect(hop.location, 302);
      }
      return send(reply, pageAnswer(hop.mode, hop.location, []));
    },
  );

  app.get<CampaignParams>('/:campaign/t.js', async (request, reply) => {
    const { campaign } = request.params;
    if (!EXTERNAL_ID.test(campaign) || !engine.trackerCampaign(campaign)) throw new NotFoundError();
    return reply
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .type('text/javascript; charset=utf-8')
      .send(TRACKING_SCRIPT);
  });

  void app.register(async (scope) => {
    // The script posts its JSON as text/plain: a simple request, with no preflight before every click.
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_r, body, done) => {
      try {
        done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
      } catch {
        done(null, undefined);
      }
    });

    scope.post<CampaignParams>('/c/:campaign/visit', async (request, reply) => {
      const origin = request.headers.origin;
      reply.header('vary', 'Origin').header('cache-control', 'no-store');
      if (typeof origin === 'string' && origin !== 'null') {
        // The answer is readable by the page either way, so that a refusal can be said in its console.
        reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true');
      }
      const { campaign } = request.params;
      const compiled = EXTERNAL_ID.test(campaign) ? engine.trackerCampaign(campaign) : undefined;
      if (!compiled) return reply.code(404).send({ message: `Campaign ${campaign} is not an active campaign` });
      if (compiled.type !== 'direct') {
        return reply.code(403).send({ message: `Campaign ${campaign} is not a direct campaign: no click recorded` });
      }
      if (typeof origin !== 'string' || !compiled.allowedOrigins.has(origin)) {
        return reply.code(403).send({
          message: `This page's origin (${typeof origin === 'string' ? origin : 'none'}) is not allowed by campaign ${campaign}: no click recorded. Add it to the campaign's allowed origins.`,
        });
      }
      const visit = ZVisit.safeParse(request.body);
      let page: URL | null = null;
      try {
        page = visit.success ? new URL(visit.data.url) : null;
      } catch {
        page = null;
      }
      if (!page || page.origin !== origin) {
        return reply.code(400).send({
          message: 'The page address is missing or not of the calling origin',
          errors: { url: ['Invalid value'] },
        });
      }
      const click: ClickRequest = {
        campaignExternalId: campaign,
        query: queryOf(page.searchParams),
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        referrer: page.href,
        acceptLanguage: request.headers['accept-language'],
        cookieHeader: request.headers.cookie,
      };
      return answerDirect(request, reply, engine, click);
    });

    scope.post('/v1/clicks', async (request, reply) => {
      const authorization = request.headers.authorization;
      const token =
        typeof authorization === 'string' && /^Bearer\s+/i.test(authorization)
          ? authorization.replace(/^Bearer\s+/i, '').trim()
          : '';
      const input = parseInput(ZServerClick, request.body);
      const compiled = engine.trackerCampaign(input.campaign);
      if (!compiled) throw new NotFoundError();
      if (compiled.type !== 'direct' || !token || !sameToken(token, compiled.clickTokenHash)) {
        throw new UnauthorizedError("A direct campaign's click token is required (Authorization: Bearer …)");
      }
      const click: ClickRequest = {
        campaignExternalId: input.campaign,
        query: input.query,
        ip: input.ip,
        userAgent: input.user_agent,
        referrer: input.referrer,
        acceptLanguage: input.accept_language,
        cookieHeader: input.cookie,
      };
      reply.header('cache-control', 'no-store');
      const result = await engine.directClick(click);
      const kept = keptOrUnavailable(engine, result);
      if (kept.kind === 'unavailable') throw new ServiceUnavailableError();
      if (kept.kind === 'too-long') throw new ValidationError({ [kept.field]: [`At most ${kept.limit} characters`] });
      const body = clickBody(request, kept, input.campaign);
      if (!body) throw new NotFoundError();
      // The cookies the lander may pass on to the visitor (on its own site: every path).
      const cookies =
        kept.kind === 'redirect' || kept.kind === 'no-route'
          ? kept.cookies.map((cookie) => cookie.replace(/; Path=[^;]*/, '; Path=/'))
          : [];
      return { ...body, cookies };
    });
  });
}

async function answerDirect(request: FastifyRequest, reply: FastifyReply, engine: TrafficEngine, click: ClickRequest) {
  const result = await engine.directClick(click);
  const kept = keptOrUnavailable(engine, result);
  if (kept.kind === 'unavailable')
    return reply.code(503).header('retry-after', '1').send({ message: 'The click could not be kept; try again' });
  if (kept.kind === 'too-long') {
    return reply.code(400).send({
      message: 'The data you sent is not valid',
      errors: { [kept.field]: [`At most ${kept.limit} characters`] },
    });
  }
  const body = clickBody(request, kept, click.campaignExternalId);
  if (!body) return reply.code(404).send({ message: 'Not found' });
  if (kept.kind === 'redirect' || kept.kind === 'no-route')
    for (const cookie of kept.cookies) reply.header('set-cookie', cookie);
  return reply.send(body);
}
