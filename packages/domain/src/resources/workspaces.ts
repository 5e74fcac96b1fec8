import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

export const ZWorkspaceForm = z.object({
  name: z.string({ error: M.required }).trim().min(1, { error: M.required }).max(100, { error: M.tooLong }),
});
export type TWorkspaceForm = z.infer<typeof ZWorkspaceForm>;

export interface Workspace extends TWorkspaceForm {
  id: number;
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
