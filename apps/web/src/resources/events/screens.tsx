import { getResource } from '@switchyard/domain';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { badgesColumn, nameColumn, type Row, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { resourceScreens } from '../screens/resourceScreens';

const COLUMNS: ListColumn<Row>[] = [
  { accessor: 'id', label: 'resources:fields.id', render: (event) => `#${String(event.id)}` },
  nameColumn,
  { accessor: 'label', label: 'resources:events.fields.label' },
  badgesColumn('values', 'resources:events.fields.values'),
  statusColumn,
  ...timestampColumns,
];

const ELEMENTS: readonly FormElement[] = [
  nameElement(),
  {
    name: 'label',
    type: 'input',
    label: 'resources:events.fields.label',
    labelDescription: 'resources:events.labelHint',
    required: true,
  },
  {
    name: 'values',
    type: 'event-values-repeater',
    label: 'resources:events.fields.values',
    labelDescription: 'resources:events.valuesHint',
    value: [],
  },
];

/** /admin/events: id, name, label, the status values it accepts. */
export const eventScreens = resourceScreens({
  definition: getResource('events'),
  useColumns: () => COLUMNS,
  useFormElements: () => ELEMENTS,
});
