// HTTPS beside HTTP: one server per port, the same request handler, and each domain's certificate chosen
// by SNI from the database (cached for a minute, dropped at once when this node hears of a change), so a
// certificate one node obtained is served by every node.
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';

const CACHE_MS = 60_000;

interface Cached {
  context: SecureContext | null;
  at: number;
}

export class CertificateStore {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly onError: (error: unknown, servername: string) => void,
  ) {}

  /** The TLS context of the active domain named `servername`, or null when it has no certificate. */
  async contextFor(servername: string): Promise<SecureContext | null> {
    const name = servername.toLowerCase().replace(/\.$/, '');
    const cached = this.cache.get(name);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.context;
    const row = await this.db
      .selectFrom('domains')
      .select(['cert_pem', 'cert_key'])
      // Serving is the instance's work: the name is unique across workspaces.
      .where(scopeCondition({ instance: true }, 'workspace_id'))
      .where('name', '=', name)
      .where('status', '=', 'active')
      .executeTakeFirst();
    let context: SecureContext | null = null;
    if (row?.cert_pem && row.cert_key) context = createSecureContext({ cert: row.cert_pem, key: row.cert_key });
    this.cache.set(name, { context, at: Date.now() });
    return context;
  }

  /** Forgets every cached context: a certificate or a domain changed. */
  forget(): void {
    this.cache.clear();
  }

  readonly sniCallback = (
    servername: string,
    callback: (error: Error | null, context?: SecureContext) => void,
  ): void => {
    this.contextFor(servername).then(
      (context) => callback(null, context ?? undefined),
      (error: unknown) => {
        this.onError(error, servername);
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  };
}

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTPS server on `port` answering with `handler`, its certificates chosen by SNI. */
export async function listenHttps(
  handler: RequestHandler,
  certificates: CertificateStore,
  options: { port: number; host: string; keepAliveTimeout: number },
): Promise<{ server: https.Server; port: number }> {
  const server = https.createServer({ SNICallback: certificates.sniCallback }, handler);
  server.keepAliveTimeout = options.keepAliveTimeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}
