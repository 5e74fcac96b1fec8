import { buildApp } from './app.js';
import type { Config } from './config.js';
import { databaseDialect, loadConfig } from './config.js';
import { withoutLinkTokens } from './http/log-redaction.js';
import { parseTrustProxy, type TrustProxy } from './http/trusted-proxies.js';

let config: Config;
let trustProxy: TrustProxy;
try {
  config = loadConfig();
  trustProxy = parseTrustProxy(process.env.SWITCHYARD_TRUST_PROXY);
} catch (error) {
  // A wrong setting is the operator's to fix: say which, without a stack trace.
  console.error(`Switchyard cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const app = await buildApp({
  config,
  logger: { level: process.env.LOG_LEVEL ?? 'info', serializers: { req: withoutLinkTokens } },
  trustProxy,
});

const dialect = databaseDialect(config);
app.log.info(
  {
    database: dialect === 'postgres' ? 'postgres' : `sqlite (${config.dataDir})`,
    // The URL may carry a password: only say where the counts live.
    capsAndLoginLimits: config.redisUrl ? 'redis' : 'in process',
    dashboard: config.webDist,
  },
  'storage ready',
);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
const shown = config.host === '0.0.0.0' ? address.replace('0.0.0.0', 'localhost') : address;
app.log.info(`Switchyard is listening on ${shown}`);
if (config.domains.httpsPort !== undefined) {
  const httpsPort = await app.listenHttps(config.domains.httpsPort, config.host);
  app.log.info(`Switchyard serves HTTPS on port ${httpsPort}`);
}
