import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LanderFileStore } from '../src/store/lander-files.js';
import { ScopeGuard, workspaceTables } from '../src/store/scope.js';
import { campaignOnFlow, createRecord, type StoredRecord } from './fixtures/config-records.js';
import { DESKTOP, HOME_IP } from './fixtures/traffic.js';
import { makeZip, type ZipEntry } from './fixtures/zip.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  bearer,
  createUserWithPermissions,
  expectError,
  forEachDatabase,
  login,
} from './harness.js';

// Hosted landing pages. A ZIP uploaded, listed, one file edited, the page served
// sandboxed with `{offer}` filled for the visitor's click, on its workspace's tracking domain; the store
// under ScopeGuard; the lander's own permissions. Refused ZIPs are in lander-zip-refusals.test.ts. On
// SQLite (files under the data directory) and PostgreSQL (files in the rows).

const CSP = 'sandbox allow-scripts allow-forms allow-popups allow-top-navigation';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const INDEX = `<!doctype html><html><head><link rel="stylesheet" href="css/site.css"></head>
<body><a id="go" href="{offer}">Get it</a> <a id="two" href="{offer:2}">Or this</a>
<span id="country">{country}</span> <span id="other">{not_a_macro}</span></body></html>`;

const SITE_ZIP: ZipEntry[] = [
  { name: 'index.html', data: INDEX },
  { name: 'css/site.css', data: 'body { color: #123456 }' },
  { name: 'img/logo.png', data: PNG, method: 0 },
];

forEachDatabase('hosted lander files', (db) => {
  let app: FastifyInstance;
  let token: string;
  let lander: StoredRecord;
  let offer: StoredRecord;
  let campaign: StoredRecord;
  let landerId: string;
  let dataDir: string;

  const upload = (zip: Buffer, as = token, id = landerId) =>
    app.inject({
      method: 'POST',
      url: `/api/tracker/landers/${id}/files`,
      headers: { ...bearer(as), 'content-type': 'application/zip' },
      payload: zip,
    });
  const list = async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      list: { path: string; size: number; content_type: string; sha256: string; editable: boolean }[];
      served_at: string | null;
    }>();
  };
  const click = async () => {
    const response = await app.inject({
      method: 'GET',
      url: `/c/${String(campaign.external_id)}`,
      headers: { 'user-agent': DESKTOP, 'x-forwarded-for': HOME_IP },
    });
    expect(response.statusCode, response.body).toBe(302);
    return String(response.headers.location);
  };

  beforeAll(async () => {
    const database = await db.createDatabase();
    dataDir = database.SWITCHYARD_DATA_DIR;
    app = await db.buildApp({
      database,
      env: {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_LANDER_MAX_FILES: '5',
        SWITCHYARD_LANDER_MAX_BYTES: '200000',
      },
      trustProxy: true,
    });
    token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const source = await createRecord(app, token, 'traffic-sources');
    offer = await createRecord(app, token, 'tracker-offers', { url: 'https://offer.example/?c={clickid}' });
    lander = await createRecord(app, token, 'tracker-landers', { url: 'https://old-lander.example/?c={clickid}' });
    landerId = String(lander.external_id);
    campaign = await campaignOnFlow(app, token, source, [
      {
        id: 'g1',
        name: 'Everyone',
        paths: [
          {
            id: 'p1',
            offers: [{ id: 'o1', offer_external_id: offer.external_id }],
            landers: [{ id: 'l1', lander_external_id: lander.external_id }],
          },
        ],
      },
    ]);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('sends visitors to the lander URL while it has no files', async () => {
    expect(await click()).toMatch(/^https:\/\/old-lander\.example\/\?c=/);
    expect((await list()).served_at).toBeNull();
  });

  it('takes a ZIP and lists its files', async () => {
    const response = await upload(makeZip(SITE_ZIP));
    expect(response.statusCode, response.body).toBe(200);
    const { list: files, served_at } = await list();
    expect(served_at).toBe(`/l/${landerId}/`);
    expect(files.map((file) => [file.path, file.size, file.content_type, file.editable])).toEqual([
      ['css/site.css', 23, 'text/css; charset=utf-8', true],
      ['img/logo.png', PNG.length, 'image/png', false],
      ['index.html', Buffer.byteLength(INDEX), 'text/html; charset=utf-8', true],
    ]);
  });

  it('sends the click to the hosted page, which links to the offer with the same click id', async () => {
    const location = await click();
    const match = new RegExp(`^/l/${landerId}/\\?clickid=([A-Za-z0-9_-]+)$`).exec(location);
    expect(match, location).not.toBeNull();
    const clickId = match![1]!;
    const page = await app.inject({ method: 'GET', url: location });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const offerLink = `/c/${String(campaign.external_id)}/offer?clickid=${clickId}`;
    expect(page.body).toContain(`<a id="go" href="${offerLink}">`);
    // The path has one offer: its second is the click's own.
    expect(page.body).toContain(`<a id="two" href="${offerLink}&offer=2">`);
    expect(page.body).toContain('<span id="country">US</span>');
    expect(page.body).toContain('<span id="other">{not_a_macro}</span>');
    const onward = await app.inject({ method: 'GET', url: offerLink, headers: { 'user-agent': DESKTOP } });
    expect(onward.statusCode).toBe(302);
    expect(onward.headers.location).toBe(`https://offer.example/?c=${clickId}`);
    const second = await app.inject({ method: 'GET', url: `${offerLink}&offer=2`, headers: { 'user-agent': DESKTOP } });
    expect(second.headers.location).toBe(`https://offer.example/?c=${clickId}`);
  });

  it('serves the other files as they are, and nothing it does not hold', async () => {
    const css = await app.inject({ method: 'GET', url: `/l/${landerId}/css/site.css` });
    expect(css.statusCode).toBe(200);
    expect(css.body).toBe('body { color: #123456 }');
    expect(css.headers['content-security-policy']).toBe(CSP);
    const png = await app.inject({ method: 'GET', url: `/l/${landerId}/img/logo.png` });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.equals(PNG)).toBe(true);
    // Without a click the offer link goes nowhere and macros are empty.
    const bare = await app.inject({ method: 'GET', url: `/l/${landerId}/` });
    expect(bare.body).toContain('<a id="go" href="#">');
    expect(bare.body).toContain('<span id="country"></span>');
    // Another click id fills nothing.
    const stranger = await app.inject({ method: 'GET', url: `/l/${landerId}/index.html?clickid=abcdef` });
    expect(stranger.body).toContain('<a id="go" href="#">');
    for (const url of [
      `/l/${landerId}/missing.html`,
      `/l/${landerId}/../index.html`,
      `/l/${landerId}/%2e%2e/x`,
      '/l/nosuchlander1/',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    const redirect = await app.inject({ method: 'GET', url: `/l/${landerId}?clickid=x` });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe(`/l/${landerId}/?clickid=x`);
  });

  it('reads and edits one text file', async () => {
    const read = await app.inject({
      method: 'GET',
      url: `/api/tracker/landers/${landerId}/files/content?path=css/site.css`,
      headers: bearer(token),
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().content).toBe('body { color: #123456 }');
    const edit = await app.inject({
      method: 'PUT',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(token),
      payload: { path: 'css/site.css', content: 'body { color: red }' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ path: 'css/site.css', size: 19 });
    const served = await app.inject({ method: 'GET', url: `/l/${landerId}/css/site.css` });
    expect(served.body).toBe('body { color: red }');
    const image = await app.inject({
      method: 'PUT',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(token),
      payload: { path: 'img/logo.png', content: 'x' },
    });
    expect(expectError(image, 400).errors?.path).toBeDefined();
    const missing = await app.inject({
      method: 'PUT',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(token),
      payload: { path: 'new.html', content: 'x' },
    });
    expect(expectError(missing, 400).errors?.path).toBeDefined();
  });

  it('replaces every file with a new upload, in a folder of its own on SQLite', async () => {
    const response = await upload(makeZip([{ name: 'site/index.html', data: '<p>{offer}</p>' }]));
    expect(response.statusCode, response.body).toBe(200);
    expect((await list()).list.map((file) => file.path)).toEqual(['index.html']);
    expect((await app.inject({ method: 'GET', url: `/l/${landerId}/css/site.css` })).statusCode).toBe(404);
    if (db.kind === 'sqlite') {
      const workspaces = await readdir(path.join(dataDir, 'landers'));
      const folders = await readdir(path.join(dataDir, 'landers', workspaces[0]!, landerId));
      expect(folders).toHaveLength(1);
    } else {
      await expect(readdir(path.join(dataDir, 'landers'))).rejects.toThrow();
    }
  });

  it('is served on a tracking domain (no dashboard there), the click staying on that host', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: bearer(token),
      payload: { name: 'lp.example' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    // node:http, as fetch does not send a Host header of our choosing.
    const get = (url: string, host = 'lp.example') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, path: url, headers: { host, 'user-agent': DESKTOP } },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              body += chunk;
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
          },
        );
        request.once('error', reject);
        request.end();
      });
    const clicked = await get(`/c/${String(campaign.external_id)}`);
    expect(clicked.status).toBe(302);
    const location = String(clicked.headers.location);
    expect(location).toMatch(new RegExp(`^/l/${landerId}/\\?clickid=`));
    const page = await get(location);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.body).toMatch(new RegExp(`^<p>/c/${String(campaign.external_id)}/offer\\?clickid=`));
    // The domain serves no dashboard: its /api is not there, the lander is.
    expect((await get('/api/me')).status).toBe(404);
    // Another workspace's domain does not serve this workspace's lander.
    const other = await app.inject({
      method: 'POST',
      url: '/api/workspaces',
      headers: bearer(token),
      payload: { name: 'Other' },
    });
    expect(other.statusCode, other.body).toBe(201);
    const otherDomain = await app.inject({
      method: 'POST',
      url: '/api/domains',
      headers: { ...bearer(token), 'x-workspace': String(other.json<{ id: number }>().id) },
      payload: { name: 'other.example' },
    });
    expect(otherDomain.statusCode, otherDomain.body).toBe(201);
    expect(otherDomain.json<{ workspace: number }>().workspace).toBe(other.json<{ id: number }>().id);
    expect((await get(location, 'other.example')).status).toBe(404);
    expect((await get(location)).status).toBe(200);
  });

  it('names its workspace in every query (ScopeGuard), and another workspace sees none of the files', async () => {
    const tables = await workspaceTables(app.store.db as Kysely<unknown>, db.kind);
    expect(tables).toContain('lander_files');
    const guarded = new LanderFileStore(
      app.store.db.withPlugin(new ScopeGuard(tables)),
      db.kind === 'sqlite' ? dataDir : null,
    );
    const workspaceId = (
      await app.store.db.selectFrom('workspaces').select('id').orderBy('id').executeTakeFirstOrThrow()
    ).id;
    await guarded.replace(workspaceId, landerId, [
      { path: 'index.html', contentType: 'text/html; charset=utf-8', bytes: Buffer.from('<p>{offer}</p>') },
      { path: 'a.css', contentType: 'text/css; charset=utf-8', bytes: Buffer.from('p{}') },
    ]);
    expect(await guarded.write(workspaceId, landerId, 'a.css', Buffer.from('p{color:red}'))).toBe(true);
    expect((await guarded.list({ workspaceId }, landerId)).map((file) => [file.path, file.size])).toEqual([
      ['a.css', 12],
      ['index.html', 14],
    ]);
    expect(await guarded.totalSize({ workspaceId }, landerId)).toBe(26);
    expect((await guarded.read({ workspaceId }, landerId, 'a.css'))?.bytes.toString()).toBe('p{color:red}');
    expect(await guarded.list({ workspaceId: workspaceId + 1000 }, landerId)).toEqual([]);
    expect(await guarded.read({ workspaceId: workspaceId + 1000 }, landerId, 'a.css')).toBeNull();
    await guarded.replace(workspaceId, landerId, [
      { path: 'index.html', contentType: 'text/html; charset=utf-8', bytes: Buffer.from('<p>{offer}</p>') },
    ]);
  });

  it('checks the lander permissions: get to read, update to change', async () => {
    const reader = await createUserWithPermissions(app, token, ['/tracker/lander/get']);
    const listed = await app.inject({
      method: 'GET',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(reader.token),
    });
    expect(listed.statusCode).toBe(200);
    expect((await upload(makeZip(SITE_ZIP), reader.token)).statusCode).toBe(403);
    const edit = await app.inject({
      method: 'PUT',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(reader.token),
      payload: { path: 'index.html', content: 'x' },
    });
    expect(edit.statusCode).toBe(403);
    const stranger = await createUserWithPermissions(app, token, ['/tracker/offer/get']);
    const refused = await app.inject({
      method: 'GET',
      url: `/api/tracker/landers/${landerId}/files`,
      headers: bearer(stranger.token),
    });
    expect(refused.statusCode).toBe(403);
    expect((await list()).list.map((file) => file.path)).toEqual(['index.html']);
    expect((await upload(makeZip(SITE_ZIP), token, 'NoSuchLander')).statusCode).toBe(404);
  });
});
