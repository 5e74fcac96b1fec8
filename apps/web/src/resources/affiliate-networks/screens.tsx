import { Badge, Code, Group, Text } from '@mantine/core';
import { AFFILIATE_NETWORK_TEMPLATES, getResource } from '@switchyard/domain';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { nameColumn, type Row, statusColumn, timestampColumns } from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { resourceScreens } from '../screens/resourceScreens';
import { templateElement } from '../screens/templateElement';

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
  {
    // Addresses read left to right in Arabic too.
    accessor: 'postback_ips',
    label: 'resources:affiliate-networks.fields.postback_ips',
    render: (network) => {
      const addresses = Array.isArray(network.postback_ips) ? network.postback_ips.map(String) : [];
      if (addresses.length === 0) {
        return (
          <Text span c="dimmed">
            —
          </Text>
        );
      }
      return (
        <Group gap={4}>
          {addresses.slice(0, 2).map((address) => (
            <Badge key={address} variant="light" color="gray" size="sm" tt="none" miw="max-content" dir="ltr">
              {address}
            </Badge>
          ))}
          {addresses.length > 2 && (
            <Text size="xs" c="dimmed">
              +{addresses.length - 2}
            </Text>
          )}
        </Group>
      );
    },
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
      type: 'macro-url',
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
      // The address to give the network: the record's keyed `postback_url` (read-only) with the macro
      // names above, in the tracker format chosen.
      name: 'postback_url',
      type: 'network-postback-url',
      label: 'resources:affiliate-networks.fields.postback_url',
      labelDescription: 'resources:affiliate-networks.postbackUrlHint',
      input: { dir: 'ltr' },
    },
    {
      name: 'postback_ips',
      type: 'address-list',
      label: 'resources:affiliate-networks.fields.postback_ips',
      labelDescription: 'resources:affiliate-networks.postbackIpsHint',
      value: [],
      input: { dir: 'ltr', placeholder: '203.0.113.10, 198.51.100.0/24, 2001:db8::/32' },
    },
    { name: 'notes', type: 'textarea', label: 'resources:affiliate-networks.fields.notes', rows: 4 },
  ];
}

const ELEMENTS = elements();
/** A new network can start from a well-known one: its offer URL parameters and postback macros. */
const CREATE_ELEMENTS = [templateElement(AFFILIATE_NETWORK_TEMPLATES, ELEMENTS), ...ELEMENTS];

/**
 * /admin/affiliate-networks: (a template to start from, on create,) name, offer URL parameters, postback
 * parameter names, postback URL, the addresses its postbacks may come from, notes.
 */
export const affiliateNetworkScreens = resourceScreens({
  definition: getResource('affiliate-networks'),
  useColumns: () => COLUMNS,
  useFormElements: (mode) => (mode === 'create' ? CREATE_ELEMENTS : ELEMENTS),
});
