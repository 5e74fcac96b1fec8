import { describe, expect, it } from 'vitest';
import { bearer, forEachDatabase, useSeededApp } from './harness.js';

// §7: "List requests ask for the ld+json media type, and responses are read as list and total."
forEachDatabase('lists answered as JSON-LD', (db) => {
  const ctx = useSeededApp(db);

  async function get(url: string, accept?: string) {
    return ctx.app.inject({
      method: 'GET',
      url,
      headers: { ...bearer(ctx.adminToken), ...(accept ? { accept } : {}) },
    });
  }

  describe('a list asked for as application/ld+json', () => {
    it.each(['/api/traffic-sources', '/api/tracker/campaigns', '/api/workspaces', '/api/postback-log'])(
      '%s answers application/ld+json with its list and total',
      async (url) => {
        const response = await get(url, 'application/ld+json');
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/ld+json; charset=utf-8');
        expect(response.headers.vary).toContain('Accept');
        const body = response.json<{ list: unknown[]; total: number }>();
        expect(Array.isArray(body.list)).toBe(true);
        expect(typeof body.total).toBe('number');
      },
    );

    it('takes it among other types, and not when refused with q=0', async () => {
      const listed = await get('/api/traffic-sources', 'application/ld+json;q=0.9, application/json;q=0.8');
      expect(listed.headers['content-type']).toBe('application/ld+json; charset=utf-8');
      const refused = await get('/api/traffic-sources', 'application/ld+json;q=0, application/json');
      expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  });

  it('keeps application/json for anyone asking for JSON or for anything', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const response = await get('/api/traffic-sources', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  });
});
