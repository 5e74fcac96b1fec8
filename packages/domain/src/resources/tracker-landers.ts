import { z } from 'zod';
import { ZMacroUrl, ZName } from '../fields.js';
import { defineResource } from './types.js';

export const ZTrackerLanderForm = z.object({
  name: ZName,
  url: ZMacroUrl,
  enabled: z.boolean().default(true),
});
export type TTrackerLanderForm = z.infer<typeof ZTrackerLanderForm>;

export const trackerLanders = defineResource({
  name: 'tracker-landers',
  apiPath: 'tracker/landers',
  route: '/tracker/landers',
  idField: 'external_id',
  permission: { section: 'tracker', resource: 'lander' },
  archivable: true,
  menuSection: 'tracker',
  lookup: { value: 'external_id', label: 'name' },
  form: ZTrackerLanderForm,
  references: [],
});
