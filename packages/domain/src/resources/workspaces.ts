import { z } from 'zod';
import { ZCurrencyCode } from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

export const ZWorkspaceForm = z.object({
  name: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: M.tooLong }),
  /** Conversions are converted to it (issue 18). */
  currency: ZCurrencyCode.default('USD'),
});
export type TWorkspaceForm = z.infer<typeof ZWorkspaceForm>;

export interface Workspace extends TWorkspaceForm {
  id: number;
  /** The key in the path of the workspace's postback URL; rotated by an administrator. */
  postback_key: string;
  status: 'active' | 'archived';
  created_at: string;
  updated_at: string;
}

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
