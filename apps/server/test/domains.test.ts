import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, expectError, forEachDatabase, login } from './harness.js';

// Domains as a resource (names, one workspace per name, IDN, bad input, uploads) and the routing on each
// domain's host, over real HTTP (the domains' routing sits ahead of Fastify, as the click door does).

interface DomainAnswer {
  id: number;
  name: string;
  name_ascii: string;
  workspace: number;
  status: string;
  certificate: { status: string; source: string | null; expires_at: string | null };
}

/** A self-signed certificate and key for `name`, made by openssl. */
function selfSigned(name: string): { certificate: string; key: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchyard-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '30'].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
      ]),
      { stdio: 'pipe' },
    );
    return {
      certificate: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A GET to the server with the Host header of a domain. */
function get(
  port: number,
  host: string,
  url: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: url, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.once('error', reject);
    request.end();
  });
}

forEachDatabase('domains', (db) => {
  let app: FastifyInstance;
  let token: string;
  let port: number;
  let index: StoredRecord;
  let fallback: StoredRecord;
  let other: StoredRecord;

  const post = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/api/domains', headers: { ...bearer(token), ...headers }, payload });

  beforeAll(async () => {
    app = await db.buildApp({
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        // No lookups leave the machine: nothing answers here, so names resolve to nothing.
        SWITCHYARD_DNS_SERVERS: '127.0.0.1:9',
        SWITCHYARD_PUBLIC_IP: '127.0.0.1',
      },
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources');
    const campaignTo = async (url: string) => {
      const offer = await createRecord(app, token, 'tracker-offers', { url });
      return campaignOnFlow(app, token, source, [
        { id: 'g', name: 'All', paths: [{ id: 'p', offers: [{ id: 'o', offer_external_id: offer.external_id }] }] },
      ]);
    };
    index = await campaignTo('https://index.example/');
    fallback = await campaignTo('https://fallback.example/');
    other = await campaignTo('https://other.example/');
    port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('stores an IDN in punycode and shows it in Unicode', async () => {
    const response = await post({ name: ' Bücher.Example. ' });
    expect(response.statusCode, response.body).toBe(201);
    const domain = response.json<DomainAnswer>();
    expect(domain).toMatchObject({ name: 'bücher.example', name_ascii: 'xn--bcher-kva.example', status: 'active' });
    expect(domain.certificate).toMatchObject({ status: 'none', source: null, expires_at: null });
    const listed = await app.inject({ method: 'GET', url: '/api/domains?search=xn--bcher', headers: bearer(token) });
    expect(listed.json<{ list: DomainAnswer[] }>().list.map((row) => row.name)).toEqual(['bücher.example']);
  });

  it('refuses invalid and wildcard names with 400 on the name', async () => {
    for (const name of [
      '*.example.com',
      'https://track.example.com',
      'track.example.com/path',
      'localhost',
      '10.0.0.1',
      'a..b',
      '-bad.example',
      'x'.repeat(64) + '.example',
      '',
    ]) {
      const error = expectError(await post({ name }), 400);
      expect(error.errors?.name, name).toHaveLength(1);
    }
    expect(expectError(await post({ name: '*.example.com' }), 400).errors?.name?.[0]).toMatch(/Wildcard/);
    expectError(await post({ name: 'x'.repeat(1_000_000) }), 400);
  });

  it('gives a name to one workspace: a second gets 409, in this workspace or another', async () => {
    expect((await post({ name: 'once.example' })).statusCode).toBe(201);
    expectError(await post({ name: 'ONCE.example' }), 409);
    const workspace = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Second' },
    });
    const second = { 'x-workspace': String(workspace.json<{ id: number }>().id) };
    expectError(await post({ name: 'once.example' }, second), 409);
    const theirs = await post({ name: 'theirs.example' }, second);
    expect(theirs.statusCode).toBe(201);
    // Not seen from the first workspace.
    const id = theirs.json<DomainAnswer>().id;
    expectError(await app.inject({ method: 'GET', url: `/api/domains/${id}`, headers: bearer(token) }), 404);
  });

  it('refuses a campaign that is not this workspace’s', async () => {
    const error = expectError(
      await post({ name: 'refs.example', index_campaign: 'no-such-campaign', not_found: 'nope' }),
      400,
    );
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(['index_campaign', 'not_found']);
  });

  it('saves a domain whose DNS does not point here, and says so', async () => {
    const domain = (await post({ name: 'unresolved.example' })).json<
      DomainAnswer & { dns: { addresses: string[]; points_here: boolean; error: string } }
    >();
    expect(domain.dns.addresses).toEqual([]);
    expect(domain.dns.points_here).toBe(false);
    expect(domain.dns.error).toMatch(/DNS|record/);
  });

  it('archives and restores a domain', async () => {
    const id = (await post({ name: 'archived.example' })).json<DomainAnswer>().id;
    const archived = await app.inject({ method: 'PUT', url: `/api/domains/${id}/archive`, headers: bearer(token) });
    expect(archived.json<DomainAnswer>().status).toBe('archived');
    const restored = await app.inject({ method: 'PUT', url: `/api/domains/${id}/restore`, headers: bearer(token) });
    expect(restored.json<DomainAnswer>().status).toBe('active');
  });

  it('takes an uploaded certificate, and refuses a key that is not its own with 400', async () => {
    const id = (await post({ name: 'own-cert.example' })).json<DomainAnswer>().id;
    const pair = selfSigned('own-cert.example');
    const stranger = selfSigned('own-cert.example');
    const url = `/api/domains/${id}/certificate`;
    const mismatched = await app.inject({
      method: 'PUT',
      url,
      headers: bearer(token),
      payload: { certificate: pair.certificate, key: stranger.key },
    });
    expect(expectError(mismatched, 400).errors?.key?.[0]).toMatch(/does not match/);
    const wrongName = selfSigned('else.example');
    expect(
      expectError(await app.inject({ method: 'PUT', url, headers: bearer(token), payload: wrongName }), 400).errors
        ?.certificate,
    ).toHaveLength(1);
    expectError(
      await app.inject({ method: 'PUT', url, headers: bearer(token), payload: { certificate: 'nonsense', key: 'x' } }),
      400,
    );
    const uploaded = await app.inject({ method: 'PUT', url, headers: bearer(token), payload: pair });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    expect(uploaded.json<DomainAnswer>().certificate).toMatchObject({ status: 'valid', source: 'upload' });
    expect(uploaded.body).not.toContain('PRIVATE KEY');
  });

  it('routes / to the index campaign, /{campaign} on the domain, and unknown paths to not_found', async () => {
    const created = await post({
      name: 'go.example',
      index_campaign: index.external_id,
      not_found: fallback.external_id,
      noindex: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const root = await get(port, 'go.example', '/?zone=1');
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe('https://index.example/');
    expect(root.headers['x-robots-tag']).toBe('noindex');
    const alias = await get(port, 'go.example:8080', `/${other.external_id}`);
    expect(alias.headers.location).toBe('https://other.example/');
    for (const unknown of ['/no-such-page', '/api/domains', '/admin/domains', '/a/b/c']) {
      expect((await get(port, 'go.example', unknown)).headers.location, unknown).toBe('https://fallback.example/');
    }
    const robots = await get(port, 'go.example', '/robots.txt');
    expect(robots.body).toBe('User-agent: *\nDisallow: /\n');
    // The tracker's own doors still work there.
    expect((await get(port, 'go.example', `/c/${index.external_id}`)).headers.location).toBe('https://index.example/');
  });

  it('answers 404 for unknown paths and /api on a domain without the dashboard or a not_found campaign', async () => {
    await post({ name: 'plain.example' });
    for (const url of ['/', '/api/domains', '/api/profile', '/admin']) {
      const response = await get(port, 'plain.example', url);
      expect(response.status, url).toBe(404);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    // The admin host (any host not a domain) serves the API as before.
    expect((await get(port, '127.0.0.1', '/api/domains')).status).toBe(401);
  });

  it('sends HTTP on to HTTPS when https_only is set, except ACME challenges', async () => {
    await post({ name: 'secure.example', https_only: true, index_campaign: index.external_id });
    const response = await get(port, 'secure.example', '/?a=1');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('https://secure.example/?a=1');
    await app.store.db
      .insertInto('acme_challenges')
      .values({ token: 'tok-en_1', key_authorization: 'tok-en_1.thumb', created_at: new Date().toISOString() })
      .execute();
    const challenge = await get(port, 'secure.example', '/.well-known/acme-challenge/tok-en_1');
    expect(challenge.status).toBe(200);
    expect(challenge.body).toBe('tok-en_1.thumb');
    expect((await get(port, 'secure.example', '/.well-known/acme-challenge/unknown')).status).toBe(404);
  });

  it('serves the dashboard’s API on a domain with dashboard: true', async () => {
    await post({ name: 'admin.example', dashboard: true });
    expect((await get(port, 'admin.example', '/api/domains')).status).toBe(401);
  });

  it('always serves the dashboard on SWITCHYARD_PUBLIC_URL’s host, even as a domain without it', async () => {
    await post({ name: 'admin-host.example', dashboard: false });
    const admin = await db.buildAppOnSameDatabase(app, {
      env: { SWITCHYARD_PUBLIC_URL: 'https://admin-host.example' },
    });
    const adminPort = Number(new URL(await admin.listen({ port: 0, host: '127.0.0.1' })).port);
    expect((await get(adminPort, 'admin-host.example', '/api/domains')).status).toBe(401);
    // Without that setting the same record keeps the dashboard off there.
    expect((await get(port, 'admin-host.example', '/api/domains')).status).toBe(404);
  });

  it('refuses renewal when HTTPS is not served', async () => {
    const id = (await post({ name: 'renew.example' })).json<DomainAnswer>().id;
    const response = await app.inject({
      method: 'POST',
      url: `/api/domains/${id}/certificate/renew`,
      headers: bearer(token),
    });
    expect(expectError(response, 400).errors?.certificate?.[0]).toMatch(/SWITCHYARD_HTTPS_PORT/);
  });
});
