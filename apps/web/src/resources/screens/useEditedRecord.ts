import type { ResourceDefinition } from '@switchyard/domain';
import { useParams } from 'react-router';
import { useResourceRecord } from '../../api/useResourceRecord';
import type { FormMode } from './resourceScreens';

/**
 * On an edit screen, the record it edits (the query `ResourceEdit` loads it with, so no second request),
 * for form elements that depend on it; undefined on create screens and while loading.
 */
export function useEditedRecord(definition: ResourceDefinition, mode: FormMode): Record<string, unknown> | undefined {
  const { id } = useParams();
  return useResourceRecord(definition, mode === 'edit' ? id : undefined).data;
}
