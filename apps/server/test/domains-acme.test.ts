import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, PEBBLE_MISSING, type Pebble, startPebble, TestDns } from './acme-support.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, forEachDatabase, login } from './harness.js';

// Certificates from a real ACME CA (Pebble), end to end: the HTTP-01 challenge is fetched by Pebble from
// the tracker's HTTP port at whatever the test DNS says the name is; the certificate is then served by SNI
// on the HTTPS port, by this node and by a second one on the same database.

const IN_CI = process.env.CI === 'true';

interface DomainAnswer {
  id: number;
  name: string;
  dns: { addresses: string[]; points_here: boolean | null };
  certificate: {
    status: string;
    expires_at: string | null;
    issuer: string | null;
    reason: string | null;
    retry_at: string | null;
  };
}

/** The certificate the HTTPS port shows for `servername`. */
function servedCertificate(port: number, servername: string): Promise<tls.PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const certificate = socket.getPeerCertificate();
      socket.end();
      resolve(certificate);
    });
    socket.once('error', reject);
  });
}

/** A stale A record's server: answers every challenge with 404, as another machine would. */
async function impostor(address: string, port: number): Promise<http.Server> {
  const server = http.createServer((_request, response) => {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not here');
  });
  await new Promise<void>((resolve) => server.listen(port, address, () => resolve()));
  return server;
}

if (PEBBLE_MISSING && IN_CI) {
  describe('ACME with Pebble', () => {
    it('has Pebble to run against', () => {
      throw new Error(`${PEBBLE_MISSING}: CI=true, so this suite fails instead of being skipped`);
    });
  });
} else if (PEBBLE_MISSING) {
  console.warn(`\n*** ${PEBBLE_MISSING}: the ACME suite is skipped ***\n`);
  describe.skip('ACME with Pebble', () => undefined);
} else {
  forEachDatabase('ACME with Pebble', (db) => {
    let dns: TestDns;
    let pebble: Pebble;
    let app: FastifyInstance;
    let token: string;
    let httpPort: number;
    let httpsPort: number;
    let env: NodeJS.ProcessEnv;
    const closeAfter: (() => Promise<void>)[] = [];

    const create = async (name: string): Promise<DomainAnswer> => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/domains',
        headers: bearer(token),
        payload: { name },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<DomainAnswer>();
    };
    const read = async (target: FastifyInstance, id: number): Promise<DomainAnswer> =>
      (await target.inject({ method: 'GET', url: `/api/domains/${id}`, headers: bearer(token) })).json<DomainAnswer>();
    const storedPem = async (id: number): Promise<string> =>
      (
        await app.store.db
          .selectFrom('domains')
          .select('cert_pem')
          .where('id', '=', id)
          .where('workspace_id', 'is not', null)
          .executeTakeFirstOrThrow()
      ).cert_pem!;

    beforeAll(async () => {
      dns = await TestDns.start();
      httpPort = await freePort();
      pebble = await startPebble({ httpPort, dns });
      env = {
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_HTTPS_PORT: '0',
        SWITCHYARD_ACME_DIRECTORY: pebble.directory,
        SWITCHYARD_ACME_CA_FILE: pebble.caFile,
        SWITCHYARD_PUBLIC_IP: '127.0.0.1',
        SWITCHYARD_DNS_SERVERS: dns.address,
      };
      app = await db.buildApp({ env });
      await app.listen({ port: httpPort, host: '127.0.0.1' });
      httpsPort = await app.listenHttps(0, '127.0.0.1');
      token = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    }, 60_000);

    afterAll(async () => {
      for (const close of closeAfter) await close();
      await pebble?.stop();
      await dns?.close();
    });

    let issued: DomainAnswer;

    it('orders a certificate for a domain that points here, the challenge validated by the CA', async () => {
      dns.records.set('shop.test', ['127.0.0.1']);
      const domain = await create('shop.test');
      expect(domain.dns).toMatchObject({ addresses: ['127.0.0.1'], points_here: true });
      await app.domains.issuer!.runDue();
      issued = await read(app, domain.id);
      expect(issued.certificate.status, JSON.stringify(issued.certificate)).toBe('valid');
      expect(issued.certificate.issuer).toMatch(/Pebble/);
      expect(Date.parse(issued.certificate.expires_at!)).toBeGreaterThan(Date.now() + 30 * 24 * 3600 * 1000);
      expect(issued.certificate.reason).toBeNull();
      // The challenge token is removed once answered.
      expect(await app.store.db.selectFrom('acme_challenges').selectAll().execute()).toEqual([]);
    }, 60_000);

    it('serves it over HTTPS by SNI', async () => {
      const served = await servedCertificate(httpsPort, 'shop.test');
      expect(served.subjectaltname).toBe('DNS:shop.test');
      expect(served.fingerprint256).toBe(new X509Certificate(await storedPem(issued.id)).fingerprint256);
      // Requests over it reach the same app: the domain's robots.txt (noindex by default).
      const robots = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = https.request(
          {
            host: '127.0.0.1',
            port: httpsPort,
            path: '/robots.txt',
            servername: 'shop.test',
            headers: { host: 'shop.test' },
            rejectUnauthorized: false,
          },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => {
              body += chunk.toString();
            });
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.once('error', reject);
        request.end();
      });
      expect(robots).toEqual({ status: 200, body: 'User-agent: *\nDisallow: /\n' });
      // Another name gets no certificate: the handshake fails.
      await expect(servedCertificate(httpsPort, 'unknown.test')).rejects.toThrow();
    });

    it('never answers the private key', async () => {
      const key = (
        await app.store.db
          .selectFrom('domains')
          .select('cert_key')
          .where('id', '=', issued.id)
          .where('workspace_id', 'is not', null)
          .executeTakeFirstOrThrow()
      ).cert_key!;
      expect(key).toMatch(/PRIVATE KEY/);
      const list = await app.inject({ method: 'GET', url: '/api/domains', headers: bearer(token) });
      expect(list.body).not.toContain('PRIVATE KEY');
      expect(list.body).not.toContain(key.split('\n')[1]);
    });

    it('orders nothing for a domain whose DNS points elsewhere, and shows that', async () => {
      dns.records.set('elsewhere.test', ['192.0.2.10']);
      const domain = await create('elsewhere.test');
      expect(domain.dns).toMatchObject({ addresses: ['192.0.2.10'], points_here: false });
      await app.domains.issuer!.runDue();
      expect((await read(app, domain.id)).certificate.status).toBe('none');
    });

    it('renews a certificate 30 days before it expires', async () => {
      const before = await storedPem(issued.id);
      await app.domains.issuer!.runDue();
      expect(await storedPem(issued.id)).toBe(before);
      const soon = new Date(Date.now() + 20 * 24 * 3600 * 1000).toISOString();
      await app.store.db
        .updateTable('domains')
        .set({ cert_expires_at: soon })
        .where('id', '=', issued.id)
        .where('workspace_id', 'is not', null)
        .execute();
      await app.domains.issuer!.runDue();
      const renewed = await read(app, issued.id);
      expect(renewed.certificate.status).toBe('valid');
      expect(Date.parse(renewed.certificate.expires_at!)).toBeGreaterThan(Date.parse(soon));
      const pem = await storedPem(issued.id);
      expect(pem).not.toBe(before);
      app.domains.certificates.forget();
      expect((await servedCertificate(httpsPort, 'shop.test')).fingerprint256).toBe(
        new X509Certificate(pem).fingerprint256,
      );
    }, 60_000);

    it('shows the CA’s reason when the challenge fails, and retries later', async () => {
      // A stale A record listed first: the CA reaches another server, which does not know the token.
      const stale = await impostor('127.0.0.3', httpPort);
      closeAfter.push(() => new Promise((resolve) => stale.close(() => resolve())));
      dns.records.set('stale.test', ['127.0.0.3', '127.0.0.1']);
      const domain = await create('stale.test');
      await app.domains.issuer!.runDue();
      const failed = await read(app, domain.id);
      expect(failed.certificate.status).toBe('failed');
      expect(failed.certificate.reason).toMatch(/404|127\.0\.0\.3/);
      expect(Date.parse(failed.certificate.retry_at!)).toBeGreaterThan(Date.now());
      // Not retried before its time.
      await app.domains.issuer!.runDue();
      expect((await read(app, domain.id)).certificate.retry_at).toBe(failed.certificate.retry_at);
    }, 60_000);

    it('is served by a second node, which also orders through the first node’s challenge answers', async () => {
      const second = await db.buildAppOnSameDatabase(app, { env });
      await second.listen({ port: 0, host: '127.0.0.1' });
      const secondHttps = await second.listenHttps(0, '127.0.0.1');
      expect((second.server.address() as AddressInfo).port).not.toBe(httpPort);
      const pem = await storedPem(issued.id);
      expect((await servedCertificate(secondHttps, 'shop.test')).fingerprint256).toBe(
        new X509Certificate(pem).fingerprint256,
      );

      // The CA validates on the first node's port; the second node ordered, and stored the token.
      dns.records.set('second.test', ['127.0.0.1']);
      const created = await second.inject({
        method: 'POST',
        url: '/api/domains',
        headers: bearer(token),
        payload: { name: 'second.test' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<DomainAnswer>().id;
      await second.domains.issuer!.runDue();
      await app.domains.issuer!.runDue();
      expect((await read(second, id)).certificate.status).toBe('valid');
      app.domains.certificates.forget();
      const onFirst = await servedCertificate(httpsPort, 'second.test');
      expect(onFirst.subjectaltname).toBe('DNS:second.test');
    }, 90_000);
  });
}
