import { z } from 'zod';
import { DEFAULT_DAILY_CAP, DEFAULT_POSTBACK_DAILY_CAP, DEFAULT_WEIGHT } from '../constants.js';
import {
  duplicateRowIdErrors,
  ZConditionText,
  ZCount,
  ZExternalIdRef,
  ZName,
  ZOptionalText,
  ZRowId,
  ZWeight,
} from '../fields.js';
import { optimizeFields } from '../optimization.js';
import { defineResource } from './types.js';

/** §3.4: the fields an API path and a tracker path share. */
export const pathFields = {
  id: ZRowId,
  name: ZOptionalText(),
  enabled: z.boolean().default(true),
  weight: ZWeight.default(DEFAULT_WEIGHT),
  daily_cap: ZCount.default(DEFAULT_DAILY_CAP),
  postback_daily_cap: ZCount.default(DEFAULT_POSTBACK_DAILY_CAP),
  subaff: ZOptionalText(),
};

export const ZApiPath = z.object({ ...pathFields, offer_external_id: ZExternalIdRef });
export type TApiPath = z.infer<typeof ZApiPath>;

/** §3.3: a path group (flow rule) whose paths are of one kind. */
export function pathGroupSchema<TPath extends z.ZodType>(path: TPath) {
  return z.object({
    id: ZRowId,
    name: ZOptionalText(),
    enabled: z.boolean().default(true),
    priority: z.number().int().min(0).default(0),
    condition: ZConditionText,
    flow_external_id: z.string().nullish(),
    paths: z.array(path).default([]),
    ...optimizeFields,
  });
}

type Row = { id: unknown; path: (string | number)[] };
type RowLike = { id?: unknown; paths?: unknown; offers?: unknown; landers?: unknown };

const rowsOf = (value: unknown): RowLike[] => (Array.isArray(value) ? (value as RowLike[]) : []);

/**
 * A flow's path groups, paths, and offer and lander rows each have ids unique in the flow; the
 * second of two alike is named by its field path (`path_groups.1.paths.0.id`).
 */
export function flowDuplicateRowIds(pathGroups: unknown): Record<string, string[]> {
  const kinds: Record<'groups' | 'paths' | 'offers' | 'landers', Row[]> = {
    groups: [],
    paths: [],
    offers: [],
    landers: [],
  };
  rowsOf(pathGroups).forEach((group, g) => {
    kinds.groups.push({ id: group.id, path: ['path_groups', g] });
    rowsOf(group.paths).forEach((path, p) => {
      kinds.paths.push({ id: path.id, path: ['path_groups', g, 'paths', p] });
      for (const kind of ['offers', 'landers'] as const) {
        rowsOf(path[kind]).forEach((row, r) => {
          kinds[kind].push({ id: row.id, path: ['path_groups', g, 'paths', p, kind, r] });
        });
      }
    });
  });
  return duplicateRowIdErrors(Object.values(kinds));
}

/** Priority equals the row index (§3.3); the server rewrites it so order is the only truth. */
export function withPriorities<T extends { priority: number }>(rows: T[]): T[] {
  return rows.map((row, index) => ({ ...row, priority: index }));
}

export const ZFlowForm = z.object({
  name: ZName,
  path_groups: z.array(pathGroupSchema(ZApiPath)).default([]).transform(withPriorities),
});
export type TFlowForm = z.infer<typeof ZFlowForm>;

export const flows = defineResource({
  name: 'flows',
  apiPath: 'flows',
  route: '/admin/flows',
  idField: 'external_id',
  permission: { section: 'api', resource: 'flow' },
  archivable: true,
  menuSection: 'api',
  lookup: { value: 'external_id', label: 'name' },
  form: ZFlowForm,
  references: [{ field: 'path_groups.*.paths.*.offer_external_id', resource: 'offers' }],
});
