import { z } from 'zod';
import { ZConditionText, ZName } from '../fields.js';
import { defineResource } from './types.js';

export const ZSegmentForm = z.object({ name: ZName, condition: ZConditionText });
export type TSegmentForm = z.infer<typeof ZSegmentForm>;

export const segments = defineResource({
  name: 'segments',
  apiPath: 'segments',
  route: '/admin/segments',
  idField: 'external_id',
  permission: { section: 'api', resource: 'segments' },
  archivable: true,
  menuSection: 'api',
  lookup: { value: 'external_id', label: 'name' },
  form: ZSegmentForm,
  references: [],
  withChainApiPath: 'segments-with-chain',
});
