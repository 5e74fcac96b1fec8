import { z } from 'zod';
import { ZName } from '../fields.js';
import { defineResource } from './types.js';

export const ZEventForm = z.object({
  name: ZName,
  /** The lookup label (§3.1). */
  label: ZName,
  /** §3.7 event values: the status values it accepts. */
  values: z.array(z.string().trim().min(1).max(64)).default([]),
});
export type TEventForm = z.infer<typeof ZEventForm>;

export const events = defineResource({
  name: 'events',
  apiPath: 'events',
  route: '/admin/events',
  idField: 'id',
  permission: { section: 'general', resource: 'event' },
  archivable: true,
  menuSection: 'general',
  lookup: { value: 'id', label: 'label' },
  form: ZEventForm,
  references: [],
});
