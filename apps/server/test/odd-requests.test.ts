import { describe, expect, it } from 'vitest';
import { bearer, expectError, forEachDatabase, useSeededApp } from './harness.js';

// Issue 41, points 6 to 10: odd requests that once reached the database, a redirect or a reset link.

forEachDatabase('odd requests', (db) => {
  const ctx = useSeededApp(db);

  describe('point 7: a NUL byte in a path parameter', () => {
    it.each([
      ['GET', '/api/events/clicks/%00/replay'],
      ['GET', '/api/events/leads/%00/replay'],
      ['POST', '/api/tracker/campaigns/%00/costs'],
      ['GET', '/api/tracker/campaigns/a%00b'],
      ['PUT', '/api/users/%00'],
      ['GET', '/api/history/%00'],
      ['POST', '/api/history/%00/restore'],
    ] as const)('%s %s: 404, never a 500', async (method, url) => {
      const response = await ctx.app.inject({
        method,
        url,
        headers: bearer(ctx.adminToken),
        ...(method === 'GET' ? {} : { payload: { amount: 1, date_from: '2026-01-01', date_to: '2026-01-02' } }),
      });
      expectError(response, 404);
    });

    it('still asks for a session first', async () => {
      expectError(await ctx.app.inject({ method: 'GET', url: '/api/events/clicks/%00/replay' }), 401);
    });
  });
});
