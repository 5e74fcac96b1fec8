import { ZSegmentForm } from './segments.js';
import { defineResource } from './types.js';

export const trackerSegments = defineResource({
  name: 'tracker-segments',
  apiPath: 'tracker/segments',
  route: '/tracker/segments',
  idField: 'external_id',
  permission: { section: 'tracker', resource: 'segments' },
  archivable: true,
  menuSection: 'tracker',
  lookup: { value: 'external_id', label: 'name' },
  form: ZSegmentForm,
  references: [],
  withChainApiPath: 'tracker/segments-with-chain',
});
