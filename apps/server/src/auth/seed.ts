import { SEED_ROLES } from '@switchyard/domain';
import { newPostbackKey } from '../store/conversion-states.js';
import type { Store } from '../store/database.js';
import { isUniqueViolation, now } from '../store/database.js';
import { generatePassword, hashPassword } from './password.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@switchyard.local';
export const DEFAULT_WORKSPACE_NAME = 'Default';
export const ADMINISTRATOR_ROLE = 'Administrator';

export interface SeedOptions {
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Where the generated password is shown; the console by default so it is seen even without logs. */
  print?: (text: string) => void;
}

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  /** Set only when the password was generated. */
  generatedPassword?: string;
}

/**
 * On an empty users table: the seed roles, a "Default" workspace and the first administrator. Runs on
 * every start and does nothing once any user exists; two nodes starting at once cannot both seed,
 * because the administrator's email is unique and everything happens in one transaction.
 */
export async function seedEmptyDatabase(store: Store, options: SeedOptions): Promise<SeedResult> {
  const anyUser = await store.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return { seeded: false };

  const adminEmail = (options.adminEmail ?? DEFAULT_ADMIN_EMAIL).trim().toLowerCase();
  const generatedPassword = options.adminPassword ? undefined : generatePassword();
  const passwordHash = await hashPassword(options.adminPassword ?? generatedPassword ?? '');
  const timestamp = now();
  const record = { status: 'active', created_at: timestamp, updated_at: timestamp };

  try {
    await store.db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('users').select('id').limit(1).executeTakeFirst()) throw new AlreadySeeded();
      const existingRoles = await trx.selectFrom('roles').select(['id', 'name']).execute();
      const roleIds = new Map(existingRoles.map((role) => [role.name, role.id]));
      for (const role of SEED_ROLES) {
        if (roleIds.has(role.name)) continue;
        const { id } = await trx
          .insertInto('roles')
          .values({ ...record, name: role.name, permissions: JSON.stringify(role.permissions) })
          .returning('id')
          .executeTakeFirstOrThrow();
        roleIds.set(role.name, id);
      }
      const workspace =
        (await trx
          .selectFrom('workspaces')
          .select('id')
          .where('name', '=', DEFAULT_WORKSPACE_NAME)
          .orderBy('id')
          .executeTakeFirst()) ??
        (await trx
          .insertInto('workspaces')
          .values({ ...record, name: DEFAULT_WORKSPACE_NAME, postback_key: newPostbackKey() })
          .returning('id')
          .executeTakeFirstOrThrow());
      const admin = await trx
        .insertInto('users')
        .values({
          ...record,
          name: 'Administrator',
          email: adminEmail,
          password_hash: passwordHash,
          active: 1,
          email_verified: 1,
          permissions: '[]',
          invited_by: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const administratorRole = roleIds.get(ADMINISTRATOR_ROLE);
      if (administratorRole === undefined) throw new Error(`SEED_ROLES has no "${ADMINISTRATOR_ROLE}" role`);
      await trx.insertInto('user_roles').values({ user_id: admin.id, role_id: administratorRole }).execute();
      await trx.insertInto('user_workspaces').values({ user_id: admin.id, workspace_id: workspace.id }).execute();
    });
  } catch (error) {
    if (error instanceof AlreadySeeded || isUniqueViolation(error)) return { seeded: false };
    throw error;
  }

  if (generatedPassword) {
    const print = options.print ?? console.log;
    print(generatedPasswordNotice(adminEmail, generatedPassword));
    return { seeded: true, adminEmail, generatedPassword };
  }
  return { seeded: true, adminEmail };
}

class AlreadySeeded extends Error {}

function generatedPasswordNotice(email: string, password: string): string {
  const lines = [
    'Switchyard created the first administrator:',
    '',
    `  email:    ${email}`,
    `  password: ${password}`,
    '',
    'This password is shown only once. Log in and change it, or set',
    'SWITCHYARD_ADMIN_EMAIL and SWITCHYARD_ADMIN_PASSWORD before the first start.',
  ];
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  const rule = '='.repeat(width);
  return ['', rule, ...lines.map((line) => `  ${line}`), rule, ''].join('\n');
}
