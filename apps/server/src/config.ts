import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MIN_LENGTH } from '@switchyard/domain';
import { type ReportEngineLimits, reportEngineLimits } from './report-engine-limits.js';

export type DatabaseDialect = 'sqlite' | 'postgres';

export interface Config {
  port: number;
  host: string;
  /** `postgres://…` selects PostgreSQL; unset means SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * `redis://…`: every node shares daily cap counters and failed-login counts through it; unset means
   * each process counts alone.
   */
  redisUrl: string | undefined;
  /**
   * `http://user:password@host:8123/database`: every node sends its clicks and leads to
   * ClickHouse and reports read them there. Needs DATABASE_URL; unset, reports read the embedded
   * columnar store (SQLite) or the event tables (PostgreSQL).
   */
  clickhouseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  dataDir: string;
  /**
   * Lookups built from packaged data at the first start (the ASN table the bot verdicts and ISP rules read), reused by later
   * starts: SWITCHYARD_CACHE_DIR, else `cache` in the data directory.
   */
  cacheDir: string;
  webDist: string;
  production: boolean;
  /** `smtp://…` or `smtps://…`: account emails go through it; unset means invitation links are shown. */
  smtpUrl: string | undefined;
  /**
   * Write account links (invitation, email confirmation, password reset) to the server log when they are
   * not emailed; off by default, as a log is read by more people than the link is meant for.
   */
  logLinks: boolean;
  /** The From of account emails. */
  mailFrom: string;
  /** Where the dashboard is reached from outside, without a trailing slash; links in emails start with it. */
  publicUrl: string | undefined;
  /**
   * How often the event journal is flushed to the disk, in milliseconds: what a power loss can take of
   * answered clicks and leads (a crash of the process takes none). 0 waits for the disk before every answer.
   */
  journalFsyncMs: number;
  /**
   * Let outbound postbacks and test postbacks reach loopback, private, link-local and multicast
   * addresses (SWITCHYARD_ALLOW_PRIVATE_TARGETS); off, as such a URL would let an operator probe the
   * tracker's own network.
   */
  allowPrivateTargets: boolean;
  /** Telegram's Bot API, where Telegram channels send (a local stand-in in tests). */
  telegramApiUrl: string;
  /** How often the built-in monitors look (the offer and lander URLs every 15th time). */
  monitorIntervalMs: number;
  /** Days the postback log keeps (SWITCHYARD_POSTBACK_LOG_DAYS); older rows are pruned. */
  postbackLogDays: number;
  /** The report engine's share of the machine and how long a report may wait (SWITCHYARD_REPORT_*). */
  reports: ReportEngineLimits;
  /** Own domains: HTTPS with SNI, and certificates from an ACME directory. */
  domains: DomainSettings;
  /** What one hosted lander's ZIP may unpack to. */
  landers: LanderLimits;
}

export interface LanderLimits {
  /** SWITCHYARD_LANDER_MAX_FILES: files in one lander (2,000 unless set). */
  maxFiles: number;
  /** SWITCHYARD_LANDER_MAX_BYTES: bytes of one lander unpacked, counted while inflating (100 MB unless set). */
  maxBytes: number;
}

export const DEFAULT_LANDER_LIMITS: LanderLimits = { maxFiles: 2_000, maxBytes: 100 * 1024 * 1024 };

function parseLanderLimits(env: NodeJS.ProcessEnv): LanderLimits {
  const files = nonEmpty(env.SWITCHYARD_LANDER_MAX_FILES);
  const bytes = nonEmpty(env.SWITCHYARD_LANDER_MAX_BYTES);
  const maxFiles = files === undefined ? DEFAULT_LANDER_LIMITS.maxFiles : Number(files);
  if (!Number.isInteger(maxFiles) || maxFiles < 1 || maxFiles > 100_000) {
    throw new Error(`SWITCHYARD_LANDER_MAX_FILES must be a whole number from 1 to 100000, not "${files}"`);
  }
  const maxBytes = bytes === undefined ? DEFAULT_LANDER_LIMITS.maxBytes : Number(bytes);
  // The ZIP itself is read into memory, so the limit stays within what one request may hold.
  if (!Number.isInteger(maxBytes) || maxBytes < 1024 || maxBytes > 1024 * 1024 * 1024) {
    throw new Error(
      `SWITCHYARD_LANDER_MAX_BYTES must be a whole number of bytes from 1024 to 1073741824, not "${bytes}"`,
    );
  }
  return { maxFiles, maxBytes };
}

export interface DomainSettings {
  /** SWITCHYARD_HTTPS_PORT: HTTPS is served there (beside HTTP on PORT), and certificates are ordered. */
  httpsPort: number | undefined;
  /** SWITCHYARD_ACME_DIRECTORY: Let's Encrypt's production directory unless set. */
  acmeDirectory: string;
  /** SWITCHYARD_ACME_CA_FILE: a PEM file of CAs to trust for the directory (a test CA such as Pebble). */
  acmeCaFile: string | undefined;
  /** SWITCHYARD_ACME_EMAIL: the account's contact, told of expiry problems by the CA. */
  acmeEmail: string | undefined;
  /** SWITCHYARD_PUBLIC_IP: the address domains must resolve to before a certificate is ordered. */
  publicIp: string | undefined;
  /** SWITCHYARD_DNS_SERVERS: resolvers for the domains' lookups (host:port, comma separated); the system's unless set. */
  dnsServers: string[] | undefined;
}

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

function parseDomainSettings(env: NodeJS.ProcessEnv): DomainSettings {
  const httpsPort = nonEmpty(env.SWITCHYARD_HTTPS_PORT);
  const directory = nonEmpty(env.SWITCHYARD_ACME_DIRECTORY) ?? LETS_ENCRYPT_DIRECTORY;
  if (!/^https?:\/\//i.test(directory)) {
    throw new Error(`SWITCHYARD_ACME_DIRECTORY must be the URL of an ACME directory, not "${directory}"`);
  }
  const publicIp = nonEmpty(env.SWITCHYARD_PUBLIC_IP);
  if (publicIp !== undefined && isIP(publicIp) === 0) {
    throw new Error(`SWITCHYARD_PUBLIC_IP must be an IPv4 or IPv6 address, not "${publicIp}"`);
  }
  const servers = nonEmpty(env.SWITCHYARD_DNS_SERVERS);
  return {
    httpsPort: httpsPort === undefined ? undefined : parsePortNamed('SWITCHYARD_HTTPS_PORT', httpsPort),
    acmeDirectory: directory,
    acmeCaFile: nonEmpty(env.SWITCHYARD_ACME_CA_FILE),
    acmeEmail: nonEmpty(env.SWITCHYARD_ACME_EMAIL),
    publicIp,
    dnsServers:
      servers === undefined
        ? undefined
        : servers
            .split(',')
            .map((server) => server.trim())
            .filter(Boolean),
  };
}

function parsePortNamed(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port number, got "${value}"`);
  return port;
}

/** SWITCHYARD_JOURNAL_FSYNC_MS unless set. */
export const DEFAULT_JOURNAL_FSYNC_MS = 1000;

const DEFAULT_PORT = 3000;
const sourceDir = path.dirname(fileURLToPath(import.meta.url));

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`PORT must be a port number, got "${value}"`);
  return port;
}

function parseMonitorInterval(value: string | undefined): number {
  if (value === undefined) return 60_000;
  const interval = Number(value);
  if (!Number.isInteger(interval) || interval < 1_000 || interval > 3_600_000) {
    throw new Error(
      `SWITCHYARD_MONITOR_INTERVAL_MS must be a whole number of milliseconds from 1000 to 3600000, not "${value}"`,
    );
  }
  return interval;
}

function parseTelegramApiUrl(value: string | undefined): string {
  if (value === undefined) return 'https://api.telegram.org';
  if (!/^https?:\/\/[^\s/]+/i.test(value) || !URL.canParse(value)) {
    throw new Error(`SWITCHYARD_TELEGRAM_API_URL must be an http:// or https:// URL, not "${value}"`);
  }
  return value;
}

function parseFsyncInterval(value: string | undefined): number {
  if (value === undefined) return DEFAULT_JOURNAL_FSYNC_MS;
  const interval = Number(value);
  if (!Number.isInteger(interval) || interval < 0 || interval > 60_000) {
    throw new Error(
      `SWITCHYARD_JOURNAL_FSYNC_MS must be a whole number of milliseconds from 0 to 60000, not "${value}"`,
    );
  }
  return interval;
}

/** SWITCHYARD_POSTBACK_LOG_DAYS unless set. */
export const DEFAULT_POSTBACK_LOG_DAYS = 30;

function parseLogDays(value: string | undefined): number {
  if (value === undefined) return DEFAULT_POSTBACK_LOG_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new Error(`SWITCHYARD_POSTBACK_LOG_DAYS must be a whole number of days from 1 to 3650, not "${value}"`);
  }
  return days;
}

function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`SWITCHYARD_PUBLIC_URL must be a URL such as https://track.example.com, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('SWITCHYARD_PUBLIC_URL must start with http:// or https://');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function parseFlag(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const flag = value.toLowerCase();
  if (flag === 'true') return true;
  if (flag === 'false') return false;
  throw new Error(`${name} must be true or false, not "${value}"`);
}

export function isPostgresUrl(url: string | undefined): url is string {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url);
}

export function databaseDialect(config: Pick<Config, 'databaseUrl'>): DatabaseDialect {
  return isPostgresUrl(config.databaseUrl) ? 'postgres' : 'sqlite';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://; leave it unset to use SQLite');
  }
  const redisUrl = nonEmpty(env.REDIS_URL);
  if (redisUrl !== undefined && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new Error('REDIS_URL must start with redis:// or rediss://; leave it unset to count in each process');
  }
  const clickhouseUrl = nonEmpty(env.CLICKHOUSE_URL);
  if (clickhouseUrl !== undefined) {
    if (!/^https?:\/\/[^/]+/i.test(clickhouseUrl)) {
      throw new Error('CLICKHOUSE_URL must look like http://user:password@host:8123/database');
    }
    if (databaseUrl === undefined) {
      throw new Error(
        'CLICKHOUSE_URL needs DATABASE_URL (PostgreSQL): with SQLite, reports use the embedded columnar store',
      );
    }
  }
  const adminEmail = nonEmpty(env.SWITCHYARD_ADMIN_EMAIL);
  const adminPassword = env.SWITCHYARD_ADMIN_PASSWORD || undefined;
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new Error(`SWITCHYARD_ADMIN_EMAIL must be an email address, not "${adminEmail}"`);
  }
  if (adminPassword !== undefined && adminPassword.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`SWITCHYARD_ADMIN_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters long`);
  }
  const smtpUrl = nonEmpty(env.SMTP_URL);
  if (smtpUrl !== undefined && !/^smtps?:\/\//i.test(smtpUrl)) {
    throw new Error('SMTP_URL must start with smtp:// or smtps://');
  }
  const publicUrl = parsePublicUrl(nonEmpty(env.SWITCHYARD_PUBLIC_URL));
  // Links in emails must not be built from the request's Host header, which the requester controls.
  if (smtpUrl !== undefined && publicUrl === undefined) {
    throw new Error('SWITCHYARD_PUBLIC_URL must be set when SMTP_URL is: links in emails start with it');
  }
  // `npm start` runs in apps/server; relative paths mean the directory the operator ran it from.
  const invokedFrom = nonEmpty(env.INIT_CWD) ?? process.cwd();
  const webDist = nonEmpty(env.SWITCHYARD_WEB_DIST);
  const dataDir = path.resolve(invokedFrom, nonEmpty(env.SWITCHYARD_DATA_DIR) ?? './data');
  const cacheDir = nonEmpty(env.SWITCHYARD_CACHE_DIR);
  return {
    port: parsePort(nonEmpty(env.PORT)),
    host: nonEmpty(env.HOST) ?? '0.0.0.0',
    databaseUrl,
    redisUrl,
    clickhouseUrl,
    adminEmail,
    adminPassword,
    dataDir,
    cacheDir: cacheDir ? path.resolve(invokedFrom, cacheDir) : path.join(dataDir, 'cache'),
    webDist: webDist ? path.resolve(invokedFrom, webDist) : path.resolve(sourceDir, '../../web/dist'),
    production: env.NODE_ENV === 'production',
    smtpUrl,
    logLinks: parseFlag('SWITCHYARD_LOG_LINKS', nonEmpty(env.SWITCHYARD_LOG_LINKS)),
    mailFrom:
      nonEmpty(env.SMTP_FROM) ?? `Switchyard <no-reply@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`,
    publicUrl,
    journalFsyncMs: parseFsyncInterval(nonEmpty(env.SWITCHYARD_JOURNAL_FSYNC_MS)),
    allowPrivateTargets: parseFlag('SWITCHYARD_ALLOW_PRIVATE_TARGETS', nonEmpty(env.SWITCHYARD_ALLOW_PRIVATE_TARGETS)),
    postbackLogDays: parseLogDays(nonEmpty(env.SWITCHYARD_POSTBACK_LOG_DAYS)),
    reports: reportEngineLimits(env),
    telegramApiUrl: parseTelegramApiUrl(nonEmpty(env.SWITCHYARD_TELEGRAM_API_URL)),
    monitorIntervalMs: parseMonitorInterval(nonEmpty(env.SWITCHYARD_MONITOR_INTERVAL_MS)),
    domains: parseDomainSettings(env),
    landers: parseLanderLimits(env),
  };
}

/**
 * The event journal's directory in the data directory: one per database, so that a data directory
 * pointed at another database never replays its events there.
 */
export function journalDir(config: Config): string {
  if (!config.databaseUrl) return path.join(config.dataDir, 'journal');
  const url = new URL(config.databaseUrl);
  const database = `${url.hostname}:${url.port || 5432}${url.pathname}`;
  return path.join(config.dataDir, `journal-${createHash('sha256').update(database).digest('hex').slice(0, 12)}`);
}
