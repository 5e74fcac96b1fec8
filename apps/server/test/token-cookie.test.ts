import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, useSeededApp } from './harness.js';

// §9 keeps the session token in a cookie the dashboard writes (apps/web/src/api/client.ts); the
// server never takes it as a credential, so a request a browser sends on its own carries no session.

forEachDatabase('the token cookie', (db) => {
  const context = useSeededApp(db);

  describe('a request with the token only in a cookie', () => {
    it('is refused with 401 where the same token in the Authorization header is accepted', async () => {
      const { app, adminToken: token } = context;
      const withHeader = await app.inject({ method: 'GET', url: '/api/me', headers: bearer(token) });
      expect(withHeader.statusCode).toBe(200);
      expect(withHeader.json()).toMatchObject({ email: ADMIN_EMAIL });
      for (const cookie of [`auth_token=${token}`, `auth_token=${token}; token=${token}; session=${token}`]) {
        for (const url of ['/api/me', '/api/offers', '/api/users']) {
          const answer = await app.inject({ method: 'GET', url, headers: { cookie } });
          expect(answer.statusCode, `${url} with ${cookie}`).toBe(401);
        }
      }
    });
  });

  it('is never set by the server: logging in answers the token in the body only', async () => {
    const { app } = context;
    const answer = await app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.json().token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
