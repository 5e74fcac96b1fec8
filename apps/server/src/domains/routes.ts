// The domains' API (the resource's routes, upload, renew, look DNS up again) and the public ACME
// challenge answer.
import { domains, ZCertificateUpload } from '@switchyard/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { NotFoundError, ValidationError } from '../errors.js';
import { authorize } from '../http/guard.js';
import { parseInput } from '../http/parse.js';
import { parseId, resourceRoutes } from '../http/resource-routes.js';
import type { Database } from '../store/schema.js';
import { type AcmeIssuer, challengeAnswer } from './acme.js';
import type { DomainsService } from './service.js';

const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export function domainRoutes(api: FastifyInstance, service: DomainsService, issuer: AcmeIssuer | null): void {
  resourceRoutes(api, domains, service);
  const { section, resource } = domains.permission;
  type IdParams = { Params: { id: string } };

  api.put<IdParams>('/domains/:id/certificate', async (request) => {
    const actor = authorize(request, section, resource, 'update');
    return service.upload(parseId(domains, request.params.id), parseInput(ZCertificateUpload, request.body), actor);
  });

  api.post<IdParams>('/domains/:id/certificate/renew', async (request) => {
    const actor = authorize(request, section, resource, 'update');
    if (!issuer) {
      throw new ValidationError({
        certificate: ['Certificates are ordered only when HTTPS is served: set SWITCHYARD_HTTPS_PORT.'],
      });
    }
    const row = await service.requestRenewal(parseId(domains, request.params.id), actor);
    // Answered at once; the order runs on, and the domain shows its progress.
    void issuer.runDue();
    return service.answer(row);
  });

  api.post<IdParams>('/domains/:id/dns', async (request) => {
    const actor = authorize(request, section, resource, 'update');
    return service.checkDns(parseId(domains, request.params.id), actor);
  });
}

/** The CA's HTTP-01 request, on any host and any node: the key authorization stored for the token. */
export function challengeRoute(app: FastifyInstance, db: Kysely<Database>): void {
  app.get<{ Params: { token: string } }>('/.well-known/acme-challenge/:token', async (request, reply) => {
    const { token } = request.params;
    const answer = TOKEN.test(token) ? await challengeAnswer(db, token) : null;
    if (answer === null) throw new NotFoundError();
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(answer);
  });
}
