import type { ResourceName } from './types.js';

// Archiving what routing sends visitors to, while an active record still uses it, is
// refused with 409 (`PUT …/archive?force=true` archives it anyway); `GET …/usage` lists those records.

/** Resources whose archive is refused while an active flow, offer or campaign uses them. */
export const ARCHIVE_GUARDED_RESOURCES: ReadonlySet<ResourceName> = new Set([
  'offers',
  'tracker-offers',
  'tracker-landers',
  'flows',
  'tracker-flows',
]);

/** One active record using another. */
export interface RecordUser {
  kind: ResourceName;
  external_id: string;
  name: string;
}
