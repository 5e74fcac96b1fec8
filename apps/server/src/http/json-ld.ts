import type { FastifyInstance, FastifyRequest } from 'fastify';

export const JSON_LD_MEDIA_TYPE = 'application/ld+json';

/** Whether the request's Accept names `application/ld+json` without refusing it (`q=0`). */
export function acceptsJsonLd(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.trim().split(';');
    if (type?.trim().toLowerCase() !== JSON_LD_MEDIA_TYPE) return false;
    const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/**
 * §7: "List requests ask for the ld+json media type, and responses are read as list and total." A JSON
 * answer to a request asking for `application/ld+json` is sent as that type; the body is the same JSON
 * (lists: `{ list, total }`). Any other request keeps `application/json`. Caches are told the answer
 * depends on Accept.
 */
export function answerJsonLd(api: FastifyInstance): void {
  api.addHook('onSend', async (request, reply, payload) => {
    reply.header('vary', appendVary(reply.getHeader('vary'), 'Accept'));
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json') && acceptsJsonLd(request)) {
      reply.header('content-type', `${JSON_LD_MEDIA_TYPE}; charset=utf-8`);
    }
    return payload;
  });
}

function appendVary(current: unknown, name: string): string {
  const names = String(current ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return names.some((entry) => entry.toLowerCase() === name.toLowerCase() || entry === '*')
    ? names.join(', ')
    : [...names, name].join(', ');
}
