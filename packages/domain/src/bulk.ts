// `POST /api/{resource}/bulk` `{ action, ids }`: one change on many records, each through the same
// service, permission check and history as a change of one, answered per id.
import { z } from 'zod';
import { VALIDATION_MESSAGES as M } from './messages.js';
import type { ResourceDefinition } from './resources/types.js';

/**
 * enable / pause: the record's `enabled` (campaigns, offers, landers); archive / restore: its status;
 * move: to the workspace named by `workspace` (the acting user must belong to it and may create there).
 */
export const BULK_ACTIONS = ['enable', 'pause', 'archive', 'restore', 'move'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Resources whose records have `enabled`, so they can be paused and enabled again. */
export const PAUSABLE_RESOURCES: ReadonlySet<string> = new Set([
  'tracker-campaigns',
  'campaigns',
  'tracker-offers',
  'offers',
  'tracker-landers',
]);

export const MAX_BULK_IDS = 500;

/** Resources with modules of their own (not config records): they have no bulk route. */
const WITHOUT_BULK: ReadonlySet<string> = new Set(['workspaces', 'users', 'roles', 'domains']);

/** The bulk actions a resource takes: what the server allows and the list's bar offers. */
export function bulkActionsOf(definition: ResourceDefinition): BulkAction[] {
  if (WITHOUT_BULK.has(definition.name)) return [];
  return BULK_ACTIONS.filter((action) => {
    if (action === 'enable' || action === 'pause') return PAUSABLE_RESOURCES.has(definition.name);
    if (action === 'archive' || action === 'restore') return definition.archivable;
    return true;
  });
}

export const ZBulkRequest = z
  .object({
    action: z.enum(BULK_ACTIONS),
    ids: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: M.invalidValue }), { error: M.invalidValue })
      .min(1, { error: M.required })
      .max(MAX_BULK_IDS, { error: M.tooLarge }),
    workspace: z.number({ error: M.invalidNumber }).int({ error: M.wholeNumber }).min(1).max(2_147_483_647).optional(),
    /** archive: archive records still in use too (as `?force=true` on one). */
    force: z.boolean().default(false),
  })
  .superRefine((body, context) => {
    if (body.action === 'move' && body.workspace === undefined) {
      context.addIssue({ code: 'custom', path: ['workspace'], message: M.required });
    }
  });
export type TBulkRequest = z.infer<typeof ZBulkRequest>;

export const ZBulkResult = z.object({
  id: z.string(),
  ok: z.boolean(),
  /** The status a change of this one record would have answered (200, 400, 403, 404, 409). */
  status: z.number().int(),
  message: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export const ZBulkAnswer = z.object({ results: z.array(ZBulkResult) });
export type TBulkAnswer = z.infer<typeof ZBulkAnswer>;
