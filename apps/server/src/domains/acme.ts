// Certificates ordered from an ACME directory (Let's Encrypt unless SWITCHYARD_ACME_DIRECTORY says
// otherwise), through acme-client. The HTTP-01 challenge is answered by the tracker itself, from the
// acme_challenges table, so whichever node the CA reaches answers it. One node orders a domain at a time:
// it holds the row (cert_lock_until) while it orders. Failures are retried with backoff; a rate limit
// waits for the time the CA gave.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import acme from 'acme-client';
import { type Kysely, sql } from 'kysely';
import type { DomainSettings } from '../config.js';
import type { Database } from '../store/schema.js';
import { scopeCondition } from '../store/scope.js';
import type { EngineLog } from '../traffic/engine.js';
import { certificateFacts } from './certificates.js';
import type { DomainDns } from './dns.js';
import type { DomainRow } from './service.js';

/** A certificate is renewed this long before it expires. */
export const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
/** How long one order may hold a domain; a node that died holding it lets go after this. */
const ORDER_HOLD_MS = 10 * 60 * 1000;
const FIRST_RETRY_MS = 5 * 60 * 1000;
const LONGEST_RETRY_MS = 24 * 60 * 60 * 1000;
/** A name looked up longer ago than this is looked up again before an order. */
const DNS_FRESH_MS = 60 * 60 * 1000;
const CHECK_EVERY_MS = 60 * 1000;
const ACCOUNT_SETTING = 'acme.account';

const INSTANCE = { instance: true } as const;

/** The wait after `failures` failures in a row: 5 minutes, doubled each time, at most a day. */
export function retryDelayMs(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1), LONGEST_RETRY_MS);
}

/**
 * When a refusal is a rate limit, the time the CA said to come back: Let's Encrypt writes it in the
 * detail ("retry after 2025-01-20 17:13:02 UTC"), and in a Retry-After header.
 */
export function rateLimitRetry(message: string, retryAfterHeader: Date | null): Date | null {
  const limited = /rate.?limit|too many/i.test(message);
  if (!limited && !retryAfterHeader) return null;
  const written = /retry after (\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}) ?UTC/i.exec(message);
  if (written) return new Date(`${written[1]}T${written[2]}Z`);
  return retryAfterHeader;
}

export interface AcmeOptions {
  settings: DomainSettings;
  log: EngineLog;
  /** A certificate was stored (or a domain's state changed): the serving nodes pick it up. */
  onCertificate: (domainId: number) => Promise<void>;
  now?: () => Date;
}

export class AcmeIssuer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private readonly now: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dns: DomainDns,
    private readonly options: AcmeOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    configureHttp(options.settings);
  }

  start(): void {
    this.timer = setInterval(() => void this.runDue(), CHECK_EVERY_MS);
    this.timer.unref();
    void this.runDue();
  }

  close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    return this.running ?? Promise.resolve();
  }

  /** Orders every certificate that is due, one after another; a call while running runs once more after. */
  runDue(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          for (const row of await this.dueRows()) {
            if (this.closed) return;
            await this.orderFor(row);
          }
        } while (this.again && !this.closed);
      } catch (error) {
        this.options.log.error({ err: error }, 'certificates not checked');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Active domains without a usable certificate, or whose ordered one expires within 30 days. */
  private async dueRows(): Promise<DomainRow[]> {
    const now = this.now();
    const renewBy = new Date(now.getTime() + RENEW_BEFORE_MS).toISOString();
    const at = now.toISOString();
    return this.db
      .selectFrom('domains')
      .selectAll()
      .where(scopeCondition(INSTANCE, 'workspace_id'))
      .where('status', '=', 'active')
      .where((eb) =>
        eb.or([
          eb('cert_status', 'in', ['none', 'failed', 'pending']),
          eb.and([eb('cert_source', '=', 'acme'), eb('cert_expires_at', '<', renewBy)]),
        ]),
      )
      .where((eb) => eb.or([eb('cert_retry_at', 'is', null), eb('cert_retry_at', '<=', at)]))
      .where((eb) => eb.or([eb('cert_lock_until', 'is', null), eb('cert_lock_until', '<', at)]))
      .orderBy('id')
      .execute();
  }

  private async orderFor(row: DomainRow): Promise<void> {
    if (!(await this.pointsHere(row))) return;
    if (!(await this.hold(row))) return;
    lastRetryAfter = null;
    try {
      const certificate = await this.order(row.name);
      const facts = certificateFacts(certificate.pem);
      if (!facts) throw new Error('The CA sent a certificate that does not read');
      await this.db
        .updateTable('domains')
        .set({
          cert_status: 'valid',
          cert_source: 'acme',
          cert_pem: certificate.pem,
          cert_key: certificate.key,
          cert_expires_at: facts.expiresAt,
          cert_issuer: facts.issuer,
          cert_reason: null,
          cert_retry_at: null,
          cert_failures: 0,
          cert_lock_until: null,
          cert_updated_at: this.now().toISOString(),
        })
        .where('id', '=', row.id)
        .where(scopeCondition(INSTANCE, 'workspace_id'))
        .execute();
      this.options.log.info({ domain: row.name, expires: facts.expiresAt }, 'certificate issued');
    } catch (error) {
      await this.failed(row, error);
    }
    await this.options.onCertificate(row.id);
  }

  /** Looks the name up again when the last look is old or did not point here; no order when it does not. */
  private async pointsHere(row: DomainRow): Promise<boolean> {
    let addresses: string[] = JSON.parse(row.dns_addresses) as string[];
    const checked = row.dns_checked_at ? Date.parse(row.dns_checked_at) : 0;
    const fresh = this.now().getTime() - checked < DNS_FRESH_MS;
    if (!fresh || addresses.length === 0 || this.dns.pointsHere(addresses) === false) {
      const look = await this.dns.look(row.name);
      addresses = look.addresses;
      await this.db
        .updateTable('domains')
        .set({ dns_addresses: JSON.stringify(addresses), dns_error: look.error, dns_checked_at: look.checkedAt })
        .where('id', '=', row.id)
        .where(scopeCondition(INSTANCE, 'workspace_id'))
        .execute();
    }
    return addresses.length > 0 && this.dns.pointsHere(addresses) !== false;
  }

  /** Takes the row for this node's order; false when another node holds it. */
  private async hold(row: DomainRow): Promise<boolean> {
    const at = this.now();
    const result = await this.db
      .updateTable('domains')
      .set({
        cert_lock_until: new Date(at.getTime() + ORDER_HOLD_MS).toISOString(),
        // A certificate still in use stays valid while its renewal is ordered.
        cert_status: sql<string>`case when cert_status = 'valid' then 'valid' else 'pending' end`,
      })
      .where('id', '=', row.id)
      .where(scopeCondition(INSTANCE, 'workspace_id'))
      .where((eb) => eb.or([eb('cert_lock_until', 'is', null), eb('cert_lock_until', '<', at.toISOString())]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private async failed(row: DomainRow, error: unknown): Promise<void> {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000) || 'The order failed';
    const now = this.now();
    const failures = row.cert_failures + 1;
    const limitedUntil = rateLimitRetry(message, lastRetryAfter);
    lastRetryAfter = null;
    const retryAt = limitedUntil ?? new Date(now.getTime() + retryDelayMs(failures));
    const reason = limitedUntil ? `Rate limited by the CA until ${limitedUntil.toISOString()}: ${message}` : message;
    const stillValid =
      row.cert_status === 'valid' && row.cert_expires_at !== null && Date.parse(row.cert_expires_at) > now.getTime();
    await this.db
      .updateTable('domains')
      .set({
        cert_status: stillValid ? 'valid' : 'failed',
        cert_reason: reason,
        cert_retry_at: retryAt.toISOString(),
        cert_failures: failures,
        cert_lock_until: null,
      })
      .where('id', '=', row.id)
      .where(scopeCondition(INSTANCE, 'workspace_id'))
      .execute();
    this.options.log.warn({ domain: row.name, reason, retryAt: retryAt.toISOString() }, 'certificate not issued');
  }

  private async order(name: string): Promise<{ pem: string; key: string }> {
    const client = await this.client();
    const [key, csr] = await acme.crypto.createCsr({ commonName: name, altNames: [name] });
    const pem = await client.auto({
      csr,
      ...(this.options.settings.acmeEmail ? { email: this.options.settings.acmeEmail } : {}),
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // The CA's own request is the check; the tracker may sit behind NAT where it cannot reach itself.
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        await this.db
          .insertInto('acme_challenges')
          .values({ token: challenge.token, key_authorization: keyAuthorization, created_at: this.now().toISOString() })
          .onConflict((conflict) => conflict.column('token').doUpdateSet({ key_authorization: keyAuthorization }))
          .execute();
      },
      challengeRemoveFn: async (_authz, challenge) => {
        await this.db.deleteFrom('acme_challenges').where('token', '=', challenge.token).execute();
      },
    });
    return { pem, key: key.toString() };
  }

  /** The account for the directory: its key made once and kept in settings, shared by every node. */
  private async client(): Promise<acme.Client> {
    const directoryUrl = this.options.settings.acmeDirectory;
    const settingKey = `${ACCOUNT_SETTING}:${directoryUrl}`.slice(0, 250);
    let stored = await this.db.selectFrom('settings').select('value').where('key', '=', settingKey).executeTakeFirst();
    if (!stored) {
      const accountKey = (await acme.crypto.createPrivateEcdsaKey()).toString();
      await this.db
        .insertInto('settings')
        .values({ key: settingKey, value: JSON.stringify({ key: accountKey }), updated_at: this.now().toISOString() })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
      stored = await this.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', settingKey)
        .executeTakeFirstOrThrow();
    }
    const account = JSON.parse(stored.value) as { key: string; url?: string };
    const client = new acme.Client({
      directoryUrl,
      accountKey: account.key,
      ...(account.url ? { accountUrl: account.url } : {}),
      backoffAttempts: 10,
      backoffMin: 1000,
      backoffMax: 10_000,
    });
    if (account.url) return client;
    // Registered once; later clients name the account by its URL (registering an existing key again makes
    // acme-client send an empty update, which CAs refuse).
    const contact = this.options.settings.acmeEmail ? [`mailto:${this.options.settings.acmeEmail}`] : undefined;
    try {
      await client.createAccount({ termsOfServiceAgreed: true, ...(contact ? { contact } : {}) });
    } catch (error) {
      // Another node registered the same key first: the CA still told us the account's URL.
      try {
        client.getAccountUrl();
      } catch {
        throw error;
      }
    }
    const url = client.getAccountUrl();
    await this.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ key: account.key, url }), updated_at: this.now().toISOString() })
      .where('key', '=', settingKey)
      .execute();
    return client;
  }
}

/** The Retry-After of the last 429 the directory sent in this process, read when an order fails. */
let lastRetryAfter: Date | null = null;
let interceptorAdded = false;

/**
 * acme-client's HTTP (one axios instance per process): no retries of its own (a rate limit's Retry-After
 * can be hours; our backoff and the stored retry time take over), the CA file trusted when set, and each
 * 429's Retry-After remembered.
 */
function configureHttp(settings: DomainSettings): void {
  const instance = acme.axios;
  (instance.defaults as { acmeSettings?: { retryMaxAttempts: number } }).acmeSettings!.retryMaxAttempts = 0;
  if (settings.acmeCaFile) {
    instance.defaults.httpsAgent = new https.Agent({
      ca: [...rootCertificates, readFileSync(settings.acmeCaFile, 'utf8')],
    });
  }
  if (interceptorAdded) return;
  interceptorAdded = true;
  instance.interceptors.response.use((response) => {
    if (response.status === 429) {
      const header = response.headers['retry-after'] as string | undefined;
      const seconds = Number(header);
      const at = Number.isFinite(seconds) ? new Date(Date.now() + seconds * 1000) : header ? new Date(header) : null;
      if (at && !Number.isNaN(at.getTime())) lastRetryAfter = at;
    }
    return response;
  });
}

/** The key authorization for a challenge token, from whichever node stored it. */
export async function challengeAnswer(db: Kysely<Database>, token: string): Promise<string | null> {
  const row = await db
    .selectFrom('acme_challenges')
    .select('key_authorization')
    .where('token', '=', token)
    .executeTakeFirst();
  return row?.key_authorization ?? null;
}
