import type { FastifyRequest } from 'fastify';

const LINK_WITH_TOKEN = /\/(accept-invite|verify-email|reset-password)\/[^/?#]+/;

/** The path of a request as logged: the token of an emailed link never reaches the access log. */
export function redactLinkToken(url: string): string {
  return url.replace(LINK_WITH_TOKEN, '/$1/[token]');
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
