// Everything own domains need on one node: the routing map of hosts, the certificates served by SNI, the
// resource's service, and (when HTTPS is served) the ACME orders.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DomainSettings } from '../config.js';
import type { Database } from '../store/schema.js';
import type { TrafficEngine } from '../traffic/engine.js';
import type { FastPath } from '../traffic/http/fast-click.js';
import { AcmeIssuer } from './acme.js';
import { DomainDns } from './dns.js';
import { DomainDirectory, domainRouting } from './host-routing.js';
import { DOMAINS_KIND, DomainsService } from './service.js';
import { CertificateStore } from './tls.js';

/** Other nodes' changes reach this one through Redis notices when set; without, every minute. */
const RELOAD_EVERY_MS = 60_000;

export interface DomainParts {
  directory: DomainDirectory;
  certificates: CertificateStore;
  service: DomainsService;
  issuer: AcmeIssuer | null;
  routing: FastPath;
  /** A domain changed on another node (a Redis notice). */
  changed(): Promise<void>;
  /** Set once the HTTPS server listens: where HTTP requests are sent on to. */
  setHttpsPort(port: number): void;
  close(): Promise<void>;
}

export async function setupDomains(
  db: Kysely<Database>,
  engine: TrafficEngine,
  settings: DomainSettings,
  log: FastifyBaseLogger,
  /** Tells the other nodes (Redis); set after setup, once the notices are open. */
  publish: () => ((kind: string) => Promise<void>) | null,
  publicUrl?: string,
): Promise<DomainParts> {
  const dns = new DomainDns(settings);
  const directory = new DomainDirectory(db, publicUrl ? new URL(publicUrl).hostname.toLowerCase() : null);
  const certificates = new CertificateStore(db, (error, servername) =>
    log.error({ err: error, servername }, 'certificate not read'),
  );
  let httpsPort = settings.httpsPort;
  const refresh = async () => {
    certificates.forget();
    await directory.reload();
  };
  let issuer: AcmeIssuer | null = null;
  const service = new DomainsService(db, dns, async () => {
    await refresh();
    await publish()?.(DOMAINS_KIND);
    void issuer?.runDue();
  });
  if (settings.httpsPort !== undefined) {
    issuer = new AcmeIssuer(db, dns, {
      settings,
      log,
      onCertificate: async () => {
        await refresh();
        await publish()?.(DOMAINS_KIND);
      },
    });
  }
  await directory.reload();
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => log.error({ err: error }, 'domains not reloaded'));
  }, RELOAD_EVERY_MS);
  timer.unref();
  issuer?.start();
  return {
    directory,
    certificates,
    service,
    issuer,
    routing: domainRouting(directory, engine, { httpsPort: () => httpsPort }),
    changed: refresh,
    setHttpsPort(port) {
      httpsPort = port;
    },
    async close() {
      clearInterval(timer);
      await issuer?.close();
    },
  };
}
