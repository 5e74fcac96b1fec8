import { ALL_CONDITION_TEXT, getResource, type ResourceDefinition } from '@switchyard/domain';
import { useMemo } from 'react';
import type { FormElement } from '../../components/form/types';
import { nameColumn, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { type FormMode, resourceScreens } from '../screens/resourceScreens';
import { useEditedRecord } from '../screens/useEditedRecord';
import { segmentChainColumn } from './segmentChainColumn';
import { useSegmentChains } from './useSegmentChains';

const segments = getResource('segments');
const trackerSegments = getResource('tracker-segments');

function useSegmentColumns(definition: ResourceDefinition) {
  const chains = useSegmentChains(definition.name === 'segments' ? 'segments' : 'tracker-segments');
  return useMemo(() => [nameColumn, segmentChainColumn(chains), statusColumn, ...timestampColumns], [chains]);
}

/**
 * A segment is a name and a condition (§2.7). Its segmentId rules offer neither the segment itself nor the
 * segments in its own `segments_chain` (§3.9), both from the loaded record.
 */
function useSegmentFormElements(definition: ResourceDefinition, mode: FormMode): readonly FormElement[] {
  const record = useEditedRecord(definition, mode);
  const flowType = definition.name === 'segments' ? 'api' : 'tracker';
  const excludeSegments = useMemo(() => {
    if (!record) return undefined;
    const chain = Array.isArray(record.segments_chain) ? record.segments_chain.map(String) : [];
    return [String(record[definition.idField]), ...chain];
  }, [record, definition.idField]);

  return useMemo(
    () => [
      nameElement(),
      {
        name: 'condition',
        type: 'condition-builder',
        label: 'resources:segments.fields.condition',
        labelDescription: 'resources:segments.conditionHint',
        value: ALL_CONDITION_TEXT,
        input: { flowType, labelsEnabled: true, ...(excludeSegments ? { excludeSegments } : {}) },
      },
    ],
    [flowType, excludeSegments],
  );
}

/** /admin/segments */
export const segmentScreens = resourceScreens({
  definition: segments,
  useColumns: () => useSegmentColumns(segments),
  useFormElements: (mode) => useSegmentFormElements(segments, mode),
});

/** /tracker/segments */
export const trackerSegmentScreens = resourceScreens({
  definition: trackerSegments,
  useColumns: () => useSegmentColumns(trackerSegments),
  useFormElements: (mode) => useSegmentFormElements(trackerSegments, mode),
});
