import { CURRENCIES, DEFAULT_EMAIL_WEIGHTS } from '@switchyard/domain';
import { getTimeZones } from '@vvo/tzdb';
import type { FastifyInstance } from 'fastify';
import { requireActor } from '../../http/guard.js';

/** §7.4: reference data for select controls; any signed-in user may read it. */
export function referenceDataRoutes(app: FastifyInstance): void {
  const timeZones = getTimeZones({ includeUtc: true });

  app.get('/currency', async (request) => {
    requireActor(request);
    return CURRENCIES;
  });

  app.get('/default-email-weights', async (request) => {
    requireActor(request);
    return DEFAULT_EMAIL_WEIGHTS;
  });

  app.get('/timezone/locations', async (request) => {
    requireActor(request);
    return timeZones;
  });
}
