import { getResource, type SimulationAnswer } from '@switchyard/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useResourceRecord } from '../../api/useResourceRecord';
import type { FormElement } from '../../components/form/types';
import type { PathGroupsRepeaterInput } from '../../components/repeaters/path-groups';
import { type SimulationMarks, SimulationMarksContext } from '../../components/simulation/SimulationMarks';
import { countColumn, nameColumn, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { ResourceEdit } from '../screens/ResourceEdit';
import { resourceScreens } from '../screens/resourceScreens';
import { FlowOptimization } from './FlowOptimization';
import { FlowSimulator } from './FlowSimulator';

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

const flows = getResource('flows');
const trackerFlows = getResource('tracker-flows');

/**
 * The flow editor with a "Simulate" tab beside the form and History; the last answer marks
 * the form's path groups and rules until cleared.
 */
function flowEdit(kind: 'api' | 'tracker') {
  const definition = kind === 'tracker' ? trackerFlows : flows;
  const elements = kind === 'tracker' ? TRACKER_ELEMENTS : API_ELEMENTS;
  return function FlowEdit() {
    const { t } = useTranslation();
    const { id } = useParams();
    const record = useResourceRecord(definition, id).data;
    const externalId = record?.external_id;
    const [answer, setAnswer] = useState<SimulationAnswer | null>(null);
    const marks = useMemo<SimulationMarks | null>(
      () => (answer ? { answer, clear: () => setAnswer(null) } : null),
      [answer],
    );
    const tabs =
      typeof externalId === 'string'
        ? [
            {
              value: 'simulate',
              label: t('resources:simulator.tab'),
              panel: <FlowSimulator kind={kind} flowId={externalId} onAnswer={setAnswer} />,
            },
            {
              value: 'optimization',
              label: t('optimization:tab'),
              panel: <FlowOptimization kind={kind} flowId={externalId} flow={record ?? {}} />,
            },
          ]
        : [];
    return (
      <SimulationMarksContext.Provider value={marks}>
        <ResourceEdit definition={definition} elements={elements} wide tabs={tabs} />
      </SimulationMarksContext.Provider>
    );
  };
}

/** /admin/flows */
export const flowScreens = {
  ...resourceScreens({
    definition: flows,
    useColumns: () => COLUMNS,
    useFormElements: () => API_ELEMENTS,
    // Groups hold paths that hold offer and lander rows: the editor needs the screen's width.
    wideForm: true,
  }),
  Edit: flowEdit('api'),
};

/** /tracker/flows */
export const trackerFlowScreens = {
  ...resourceScreens({
    definition: trackerFlows,
    useColumns: () => COLUMNS,
    useFormElements: () => TRACKER_ELEMENTS,
    wideForm: true,
  }),
  Edit: flowEdit('tracker'),
};
