import { type AccountSettings, type TAccountSettings, ungrantable, VALIDATION_MESSAGES } from '@switchyard/domain';
import type { Kysely } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { rolePermissions } from '../../auth/actor.js';
import { ForbiddenError, ValidationError } from '../../errors.js';
import { now } from '../../store/database.js';
import { keepChange } from '../../store/history-keep.js';
import type { Database } from '../../store/schema.js';

const REGISTRATION_KEY = 'registration';

/** Registration is off until an administrator turns it on. */
const DEFAULTS: TAccountSettings = { registration_enabled: false, registration_role_id: null };

export class AccountSettingsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly emailDelivery: boolean,
  ) {}

  async registration(): Promise<TAccountSettings> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', REGISTRATION_KEY)
      .executeTakeFirst();
    if (!row) return DEFAULTS;
    const stored = JSON.parse(row.value) as Partial<TAccountSettings>;
    return {
      registration_enabled: stored.registration_enabled === true,
      registration_role_id: typeof stored.registration_role_id === 'number' ? stored.registration_role_id : null,
    };
  }

  async get(): Promise<AccountSettings> {
    return { ...(await this.registration()), email_delivery: this.emailDelivery };
  }

  async update(input: TAccountSettings, actor: Actor): Promise<AccountSettings> {
    if (input.registration_role_id !== null) {
      const role = await this.db
        .selectFrom('roles')
        .select('id')
        .where('id', '=', input.registration_role_id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (!role) throw new ValidationError({ registration_role_id: [VALIDATION_MESSAGES.unknownRole] });
      // Whoever sets the role strangers get must hold everything in it.
      const permissions = await rolePermissions(this.db, [role.id]);
      if (ungrantable(actor, permissions).length > 0) {
        throw new ForbiddenError({ registration_role_id: [VALIDATION_MESSAGES.cannotGrant] });
      }
    }
    const value = JSON.stringify(input);
    const timestamp = now();
    const before = await this.registration();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('settings')
        .values({ key: REGISTRATION_KEY, value, updated_at: timestamp })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: timestamp }))
        .execute();
      // Settings changes are kept too; they belong to no workspace.
      await keepChange(
        trx,
        { userId: actor.userId, ip: actor.ip, workspaceId: null },
        {
          action: 'update',
          resource: 'account-settings',
          recordId: REGISTRATION_KEY,
          recordName: null,
          before,
          after: input,
        },
      );
    });
    return this.get();
  }
}
