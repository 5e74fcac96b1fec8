import { z } from 'zod';
import type { ZWorkspaceAnswer } from '../api-answers/accounts.js';
import { ZCurrencyCode } from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

export const ZWorkspaceForm = z.object({
  name: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: M.tooLong }),
  /** Conversions are converted to it. */
  currency: ZCurrencyCode.default('USD'),
});
export type TWorkspaceForm = z.infer<typeof ZWorkspaceForm>;

export type Workspace = z.infer<typeof ZWorkspaceAnswer>;

export const workspaces = defineResource({
  name: 'workspaces',
  apiPath: 'workspaces',
  route: '/admin/workspaces',
  idField: 'id',
  permission: { section: 'general', resource: 'workspace' },
  archivable: false,
  menuSection: 'general',
  lookup: { value: 'id', label: 'name' },
  form: ZWorkspaceForm,
});
