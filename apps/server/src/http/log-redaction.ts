import type { FastifyRequest } from 'fastify';

const LINK_WITH_TOKEN = /\/(accept-invite|verify-email|reset-password)\/[^/?#]+/;
/** A session or API token in the query (`GET /api/live?token=`, for an EventSource). */
const QUERY_TOKEN = /([?&])token=[^&#]*/g;

/** The path of a request as logged: the token of an emailed link or of the query never reaches the access log. */
export function redactLinkToken(url: string): string {
  return url.replace(LINK_WITH_TOKEN, '/$1/[token]').replace(QUERY_TOKEN, '$1token=[token]');
}

/** Fastify's request log fields, with link tokens removed from the URL. */
export function withoutLinkTokens(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactLinkToken(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
