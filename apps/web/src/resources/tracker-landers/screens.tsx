import { Stack, Text } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useParams } from 'react-router';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { nameColumn, type Row, statusWithEnabledColumn, timestampColumns } from '../screens/columns';
import { nameElement, urlElement } from '../screens/formElements';
import { ResourceEdit } from '../screens/ResourceEdit';
import { resourceScreens } from '../screens/resourceScreens';
import { LanderFilesPanel } from './LanderFilesPanel';

const COLUMNS: ListColumn<Row>[] = [
  nameColumn,
  {
    accessor: 'url',
    label: 'resources:fields.url',
    render: (lander) => (
      <Text size="sm" ff="monospace" maw={360} truncate="end" dir="ltr" title={String(lander.url ?? '')}>
        {String(lander.url ?? '')}
      </Text>
    ),
  },
  statusWithEnabledColumn,
  ...timestampColumns,
];

const ELEMENTS: readonly FormElement[] = [
  nameElement(),
  urlElement('resources:tracker-landers.urlHint'),
  {
    name: 'offer_link',
    type: 'lander-offer-link',
    label: 'resources:tracker-landers.fields.offer_link',
    labelDescription: 'resources:tracker-landers.offerLinkHint',
    input: { dir: 'ltr' },
  },
  { name: 'enabled', type: 'switch', label: 'resources:tracker-landers.fields.enabled', value: true },
];

const landers = getResource('tracker-landers');

/** /tracker/landers/edit/:id: the form, then the lander's hosted files. */
function LanderEditScreen() {
  const { id } = useParams();
  return (
    <Stack gap="md">
      <ResourceEdit definition={landers} elements={ELEMENTS} />
      <LanderFilesPanel id={id} />
    </Stack>
  );
}

/** /tracker/landers: name, URL (with its macros), the link to the offer it must use, enabled. */
export const trackerLanderScreens = {
  ...resourceScreens({
    definition: landers,
    useColumns: () => COLUMNS,
    useFormElements: () => ELEMENTS,
  }),
  Edit: LanderEditScreen,
};
