import { Code, Text } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { nameColumn, type Row, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { resourceScreens } from '../screens/resourceScreens';

const COLUMNS: ListColumn<Row>[] = [
  nameColumn,
  {
    accessor: 'offer_url_params',
    label: 'resources:affiliate-networks.fields.offer_url_params',
    render: (network) =>
      network.offer_url_params ? (
        <Code dir="ltr">{String(network.offer_url_params)}</Code>
      ) : (
        <Text span c="dimmed">
          —
        </Text>
      ),
  },
  statusColumn,
  ...timestampColumns,
];

/** The parameter names the network sends on its postbacks, with the domain's defaults. */
const POSTBACK_PARAMETERS = [
  ['click_id', 'clickid'],
  ['payout', 'payout'],
  ['status', 'status'],
  ['txid', 'txid'],
] as const;

function elements(): readonly FormElement[] {
  return [
    nameElement(),
    {
      name: 'offer_url_params',
      type: 'input',
      label: 'resources:affiliate-networks.fields.offer_url_params',
      labelDescription: 'resources:affiliate-networks.offerUrlParamsHint',
      // Placeholders here are literals, not i18n keys.
      input: { autoComplete: 'off', dir: 'ltr', placeholder: 'sub1={clickid}' },
    },
    ...POSTBACK_PARAMETERS.map(
      ([key, value]): FormElement => ({
        name: `postback_params.${key}`,
        type: 'input',
        label: `resources:affiliate-networks.fields.postback_params.${key}`,
        labelDescription: key === 'click_id' ? 'resources:affiliate-networks.postbackParamsHint' : undefined,
        value,
        input: { autoComplete: 'off', dir: 'ltr', placeholder: value },
      }),
    ),
    {
      // The address to give the network, made from the macro names above (not stored).
      name: 'postback_url',
      type: 'network-postback-url',
      label: 'resources:affiliate-networks.fields.postback_url',
      labelDescription: 'resources:affiliate-networks.postbackUrlHint',
      input: { dir: 'ltr' },
    },
    { name: 'notes', type: 'textarea', label: 'resources:affiliate-networks.fields.notes', rows: 4 },
  ];
}

const ELEMENTS = elements();

/** /admin/affiliate-networks: name, offer URL parameters, postback parameter names, postback URL, notes. */
export const affiliateNetworkScreens = resourceScreens({
  definition: getResource('affiliate-networks'),
  useColumns: () => COLUMNS,
  useFormElements: () => ELEMENTS,
});
