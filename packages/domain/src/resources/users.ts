import { z } from 'zod';
import type { ZUserAnswer } from '../api-answers/accounts.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { ZNewPassword } from '../password-policy.js';
import { isKnownPermission } from '../permissions.js';
import { defineResource } from './types.js';

const ZName = z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: M.tooLong });
const ZEmail = z
  .string({ error: M.required })
  .trim()
  .toLowerCase()
  .min(1, { error: M.required })
  .max(254, { error: M.tooLong })
  .pipe(z.email({ error: M.invalidEmail }));
// A password an administrator sets follows the same rules as one a person chooses.
const ZPassword = ZNewPassword;
const ZIds = z.array(z.number().int().positive());

const userFields = {
  name: ZName,
  email: ZEmail,
  roles: ZIds.default([]),
  permissions: z.array(z.string().refine(isKnownPermission, { error: M.unknownPermission })).default([]),
  workspaces: ZIds.default([]),
  active: z.boolean().default(true),
};

export const ZUserForm = z.object({ ...userFields, password: ZPassword });
export type TUserForm = z.infer<typeof ZUserForm>;

/** On update the password is optional: left out or empty keeps the current one. */
export const ZUserUpdate = z.object({
  ...userFields,
  password: z.union([z.literal('').transform(() => undefined), ZPassword]).optional(),
});
export type TUserUpdate = z.infer<typeof ZUserUpdate>;

export type User = z.infer<typeof ZUserAnswer>;

export const users = defineResource({
  name: 'users',
  apiPath: 'users',
  route: '/admin/users',
  idField: 'id',
  permission: { section: 'general', resource: 'user' },
  archivable: false,
  menuSection: 'general',
  lookup: { value: 'id', label: 'name' },
  form: ZUserForm,
  updateForm: ZUserUpdate,
});
