import { getResource } from '@switchyard/domain';
import type { FormElement } from '../../components/form/types';
import type { PathGroupsRepeaterInput } from '../../components/repeaters/path-groups';
import { countColumn, nameColumn, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { resourceScreens } from '../screens/resourceScreens';

const COLUMNS = [
  nameColumn,
  countColumn('path_groups', 'resources:flows.fields.path_groups'),
  statusColumn,
  ...timestampColumns,
];

/** A flow is a name and its path groups (§3.3), each with a condition and weighted paths of the flow's kind. */
function flowElements(flowType: PathGroupsRepeaterInput['flowType']): readonly FormElement[] {
  return [
    nameElement(),
    {
      name: 'path_groups',
      type: 'path-groups-repeater',
      label: 'resources:flows.fields.path_groups',
      value: [],
      input: { flowType } satisfies PathGroupsRepeaterInput,
    },
  ];
}

const API_ELEMENTS = flowElements('api');
const TRACKER_ELEMENTS = flowElements('tracker');

/** /admin/flows */
export const flowScreens = resourceScreens({
  definition: getResource('flows'),
  useColumns: () => COLUMNS,
  useFormElements: () => API_ELEMENTS,
  // Groups hold paths that hold offer and lander rows: the editor needs the screen's width (issue 26).
  wideForm: true,
});

/** /tracker/flows */
export const trackerFlowScreens = resourceScreens({
  definition: getResource('tracker-flows'),
  useColumns: () => COLUMNS,
  useFormElements: () => TRACKER_ELEMENTS,
  wideForm: true,
});
