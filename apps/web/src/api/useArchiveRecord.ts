import type { ResourceDefinition } from '@switchyard/domain';
import { useRecordStatusChange } from './useRecordStatusChange';

/** Archives a record by id (§4); lists and lookups of the resource refresh afterwards. */
export function useArchiveRecord(definition: ResourceDefinition) {
  return useRecordStatusChange(definition, 'archive');
}
