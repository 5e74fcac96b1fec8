import type { ResourceDefinition } from '@switchyard/domain';
import { useRecordStatusChange } from './useRecordStatusChange';

/** Restores an archived record by id (§4); lists and lookups of the resource refresh afterwards. */
export function useRestoreRecord(definition: ResourceDefinition) {
  return useRecordStatusChange(definition, 'restore');
}
