import { z } from 'zod';
import { DEFAULT_WEIGHT } from '../constants.js';
import { ZExternalIdRef, ZName, ZRowId, ZWeight } from '../fields.js';
import { ZRedirectMode } from '../redirect-modes.js';
import { pathFields, pathGroupSchema, withPriorities } from './flows.js';
import { defineResource } from './types.js';

/** §3.4 row shapes of a tracker path. */
export const ZPathOfferRow = z.object({
  id: ZRowId,
  offer_external_id: ZExternalIdRef,
  weight: ZWeight.default(DEFAULT_WEIGHT),
  enabled: z.boolean().default(true),
});
export const ZPathLanderRow = z.object({
  id: ZRowId,
  lander_external_id: ZExternalIdRef,
  weight: ZWeight.default(DEFAULT_WEIGHT),
  enabled: z.boolean().default(true),
});

export const ZTrackerPath = z.object({
  ...pathFields,
  offers: z.array(ZPathOfferRow).default([]),
  landers: z.array(ZPathLanderRow).default([]),
  /** The campaign's redirect mode when null. */
  redirect_mode: ZRedirectMode.nullable().default(null),
});
export type TTrackerPath = z.infer<typeof ZTrackerPath>;

export const ZTrackerFlowForm = z.object({
  name: ZName,
  path_groups: z.array(pathGroupSchema(ZTrackerPath)).default([]).transform(withPriorities),
});
export type TTrackerFlowForm = z.infer<typeof ZTrackerFlowForm>;

export const trackerFlows = defineResource({
  name: 'tracker-flows',
  apiPath: 'tracker/flows',
  route: '/tracker/flows',
  idField: 'external_id',
  permission: { section: 'tracker', resource: 'flow' },
  archivable: true,
  menuSection: 'tracker',
  lookup: { value: 'external_id', label: 'name' },
  form: ZTrackerFlowForm,
  references: [
    { field: 'path_groups.*.paths.*.offers.*.offer_external_id', resource: 'tracker-offers' },
    { field: 'path_groups.*.paths.*.landers.*.lander_external_id', resource: 'tracker-landers' },
  ],
});
