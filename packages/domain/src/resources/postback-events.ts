import { z } from 'zod';
import { DEFAULT_STATUS_MAP, ZStatusMap } from '../conversions.js';
import { ZName, ZOptionalExternalIdRef } from '../fields.js';
import { VALIDATION_MESSAGES as M } from '../messages.js';
import { defineResource } from './types.js';

/**
 * What a status that the event's mapping does not list becomes: refused (400, logged), or a
 * pending conversion. Never approved: cancellation and fraud words a mapping forgot must not pay.
 */
export const UNKNOWN_STATUS_TREATMENTS = ['refuse', 'pending'] as const;
export type UnknownStatusTreatment = (typeof UNKNOWN_STATUS_TREATMENTS)[number];

export const ZPostbackEventForm = z.object({
  name: ZName,
  event_id: z.number({ error: M.required }).int().positive({ error: M.required }),
  affiliate_network_external_id: ZOptionalExternalIdRef,
  /** Incoming status values that map to this postback event. */
  status_values: z.array(z.string().trim().min(1).max(64)).default([]),
  is_conversion: z.boolean().default(false),
  /** Which status values mean pending, approved or rejected. */
  status_map: ZStatusMap.default(DEFAULT_STATUS_MAP),
  unknown_statuses: z.enum(UNKNOWN_STATUS_TREATMENTS, { error: M.invalidValue }).default('refuse'),
});
export type TPostbackEventForm = z.infer<typeof ZPostbackEventForm>;

export const postbackEvents = defineResource({
  name: 'postback-events',
  apiPath: 'postback-events',
  route: '/admin/postback-events',
  idField: 'external_id',
  permission: { section: 'general', resource: 'postback-event' },
  archivable: true,
  menuSection: 'general',
  lookup: { value: 'external_id', label: 'name' },
  form: ZPostbackEventForm,
  references: [
    { field: 'event_id', resource: 'events' },
    { field: 'affiliate_network_external_id', resource: 'affiliate-networks' },
  ],
});
