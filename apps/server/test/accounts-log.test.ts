import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { post, STRONG_PASSWORD, setRegistration, sha256, uniqueEmail } from './accounts-support.js';
import { eventually } from './eventually.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  capturedLog,
  createUserWithPermissions,
  forEachDatabase,
  login,
} from './harness.js';

// Links that are not emailed (no SMTP_URL, or sending failed) open an account to whoever holds them:
// the server log says that one was made and for whom, and holds the link only with SWITCHYARD_LOG_LINKS=true.

const PUBLIC_URL = 'https://switchyard.example.test';
const TOKEN = '[A-Za-z0-9_-]{43}';

/** An SMTP_URL nobody answers at: every email fails, as with a mail server that is down. */
async function deadSmtpUrl(): Promise<string> {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `smtp://127.0.0.1:${port}`;
}

interface LoggedApp {
  app: FastifyInstance;
  adminToken: string;
  /** Everything logged so far, one JSON line per entry. */
  log(): string;
  /** Waits for an entry that mentions `text` (links are sent off the request path). */
  entryAbout(text: string): Promise<{ msg: string; link?: string }>;
}

forEachDatabase('account links in the server log', (db) => {
  const apps: FastifyInstance[] = [];
  // Before the databases are dropped (forEachDatabase's cleanup, registered earlier, runs later).
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });

  async function start(env: NodeJS.ProcessEnv): Promise<LoggedApp> {
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({
        ...(await db.createDatabase()),
        ...env,
        SWITCHYARD_ADMIN_EMAIL: ADMIN_EMAIL,
        SWITCHYARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
        SWITCHYARD_WEB_DIST: path.join(tmpdir(), 'switchyard-no-dashboard'),
      }),
      print: () => undefined,
      logger: capturedLog(lines),
    });
    apps.push(app);
    const adminToken = await login(app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const log = () => lines.join('');
    const entryAbout = async (text: string) => {
      const line = await eventually(
        () => lines.find((entry) => entry.includes(text) && entry.includes('link was made')),
        () => `nothing logged about ${text}:\n${log()}`,
        { everyMs: 25 },
      );
      return JSON.parse(line) as { msg: string; link?: string };
    };
    return { app, adminToken, log, entryAbout };
  }

  async function storedTokenHashes(app: FastifyInstance, email: string, purpose: string): Promise<string[]> {
    const rows = await app.store.db
      .selectFrom('account_tokens')
      .innerJoin('users', 'users.id', 'account_tokens.user_id')
      .select('account_tokens.token_hash')
      .where('users.email', '=', email)
      .where('account_tokens.purpose', '=', purpose as 'reset-password' | 'verify-email')
      .execute();
    return rows.map((row) => row.token_hash);
  }

  for (const logLinks of [false, true]) {
    describe(logLinks ? 'with SWITCHYARD_LOG_LINKS=true' : 'by default', () => {
      const flag: NodeJS.ProcessEnv = logLinks ? { SWITCHYARD_LOG_LINKS: 'true' } : {};

      it('without SMTP: an invitation link is shown to the administrator and logged only as made', async () => {
        const { app, adminToken, log, entryAbout } = await start(flag);
        const email = uniqueEmail('log-invitee');
        const response = await post(app, 'invitations', { email, name: 'Invitee' }, { token: adminToken });
        expect(response.statusCode, response.body).toBe(201);
        const link = response.json<{ delivery: { sent: boolean; link: string } }>().delivery.link;
        expect(link).toMatch(new RegExp(`^/accept-invite/${TOKEN}$`));
        const token = link.split('/').pop() ?? '';

        const entry = await entryAbout(email);
        expect(entry.msg).toContain(`a link was made for ${email} (invitation)`);
        if (logLinks) {
          expect(entry.link).toBe(link);
          expect(log()).toContain(token);
        } else {
          expect(entry.link).toBeUndefined();
          expect(log()).not.toContain(token);
          expect(log()).not.toMatch(new RegExp(`accept-invite/${TOKEN}`));
        }
      });

      it('without SMTP: a password reset link is logged only as made', async () => {
        const { app, adminToken, log, entryAbout } = await start(flag);
        const user = await createUserWithPermissions(app, adminToken, []);
        expect((await post(app, 'forgot-password', { email: user.email })).statusCode).toBe(200);

        const entry = await entryAbout(user.email);
        expect(entry.msg).toContain(`a link was made for ${user.email} (passwordReset)`);
        const [stored] = await storedTokenHashes(app, user.email, 'reset-password');
        expect(stored).toBeDefined();
        const logged = new RegExp(`/reset-password/(${TOKEN})`).exec(log());
        if (logLinks) {
          // The logged link is the live one: the token in it is the one stored (as its hash).
          expect(sha256(logged?.[1] ?? '')).toBe(stored);
          expect(entry.link).toBe(logged?.[0]);
        } else {
          expect(logged).toBeNull();
          expect(entry.link).toBeUndefined();
        }
      });

      it('when sending fails: an email verification link is logged only as made', async () => {
        const { app, adminToken, log, entryAbout } = await start({
          ...flag,
          SMTP_URL: await deadSmtpUrl(),
          SWITCHYARD_PUBLIC_URL: PUBLIC_URL,
        });
        await setRegistration(app, adminToken, { registration_enabled: true });
        const email = uniqueEmail('log-registered');
        const registered = await post(app, 'register', { email, name: 'Registered', password: STRONG_PASSWORD });
        expect(registered.statusCode, registered.body).toBe(201);
        expect(registered.json()).toMatchObject({ verification_required: true });

        const entry = await entryAbout(email);
        expect(entry.msg).toContain(`Sending the emailVerification email to ${email} failed`);
        expect(entry.msg).toContain(`a link was made for ${email}`);
        const [stored] = await storedTokenHashes(app, email, 'verify-email');
        expect(stored).toBeDefined();
        const logged = new RegExp(`${PUBLIC_URL}/verify-email/(${TOKEN})`).exec(log());
        if (logLinks) {
          expect(sha256(logged?.[1] ?? '')).toBe(stored);
          expect(entry.link).toBe(logged?.[0]);
        } else {
          expect(logged).toBeNull();
          expect(log()).not.toMatch(new RegExp(`verify-email/${TOKEN}`));
          expect(entry.link).toBeUndefined();
        }
      });
    });
  }
});
