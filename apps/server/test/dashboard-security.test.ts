import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, forEachDatabase, useSeededApp } from './harness.js';

// The dashboard under a Content-Security-Policy, and /api answers under a strict one.

const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; style-src-elem 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; " +
  "frame-ancestors 'none'";

let webDist = '';

beforeAll(async () => {
  // A stand-in for apps/web/dist: what the server does with it does not depend on what the build holds.
  webDist = await mkdtemp(path.join(tmpdir(), 'switchyard-dist-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(webDist, 'assets', 'index-abc.js'), 'console.log(1)');
});

afterAll(() => rm(webDist, { recursive: true, force: true }));

forEachDatabase('dashboard security', (db) => {
  const ctx = useSeededApp(db, () => ({ SWITCHYARD_WEB_DIST: webDist }));

  it('serves every page of the dashboard, and its files, with the CSP', async () => {
    const pages = ['/', '/index.html', '/login', '/tracker/offers', '/tracker/offers/edit/abc'];
    for (const url of pages) {
      const answer = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.body, url).toContain('<div id="root">');
      expect(answer.headers['content-security-policy'], url).toBe(DASHBOARD_CSP);
    }
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it('answers /api with a policy that loads nothing, as JSON is never a page', async () => {
    const answers = [
      await ctx.app.inject({ method: 'GET', url: '/api/me', headers: bearer(ctx.adminToken) }),
      await ctx.app.inject({ method: 'GET', url: '/api/me' }),
      await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { accept: 'text/html' } }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404]);
    for (const answer of answers) {
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });
});
