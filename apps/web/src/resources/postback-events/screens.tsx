import { Badge, Text } from '@mantine/core';
import { getResource } from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLookup } from '../../api/useLookup';
import type { FormElement } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import {
  badgesColumn,
  nameColumn,
  type Row,
  referenceColumn,
  statusColumn,
  timestampColumns,
} from '../screens/columns';
import { nameElement } from '../screens/formElements';
import { resourceScreens } from '../screens/resourceScreens';

const events = getResource('events');
const affiliateNetworks = getResource('affiliate-networks');

function usePostbackEventColumns(): ListColumn<Row>[] {
  const { t } = useTranslation();
  const eventOptions = useLookup(events);
  const networkOptions = useLookup(affiliateNetworks);
  return useMemo(
    () => [
      nameColumn,
      referenceColumn('event_id', 'resources:postback-events.fields.event', eventOptions),
      referenceColumn('affiliate_network_external_id', 'resources:fields.affiliate_network', networkOptions),
      badgesColumn('status_values', 'resources:postback-events.fields.status_values'),
      {
        accessor: 'is_conversion',
        label: 'resources:postback-events.fields.is_conversion',
        render: (event) =>
          event.is_conversion ? (
            <Badge color="teal" variant="light" size="sm" miw="max-content">
              {t('resources:fields.yes')}
            </Badge>
          ) : (
            <Text span c="dimmed">
              —
            </Text>
          ),
      },
      statusColumn,
      ...timestampColumns,
    ],
    [t, eventOptions, networkOptions],
  );
}

function usePostbackEventFormElements(): readonly FormElement[] {
  const eventOptions = useLookup(events);
  const networkOptions = useLookup(affiliateNetworks);
  return useMemo(
    () => [
      nameElement(),
      {
        name: 'event_id',
        type: 'select',
        label: 'resources:postback-events.fields.event',
        placeholder: 'resources:postback-events.eventPlaceholder',
        options: eventOptions,
        required: true,
      },
      {
        name: 'affiliate_network_external_id',
        type: 'select',
        label: 'resources:fields.affiliate_network',
        labelDescription: 'resources:postback-events.networkHint',
        placeholder: 'resources:postback-events.networkPlaceholder',
        options: networkOptions,
        allowEmpty: true,
      },
      {
        name: 'status_values',
        // New values typed in; status codes such as `1` or `sale_ok` are not tags, so only empty and
        // repeated values are refused.
        type: 'tags',
        multiple: true,
        input: { freeText: true },
        label: 'resources:postback-events.fields.status_values',
        labelDescription: 'resources:postback-events.statusValuesHint',
        placeholder: 'resources:postback-events.statusValuesPlaceholder',
        options: [],
        value: [],
      },
      {
        name: 'is_conversion',
        type: 'switch',
        label: 'resources:postback-events.fields.is_conversion',
        labelDescription: 'resources:postback-events.isConversionHint',
      },
    ],
    [eventOptions, networkOptions],
  );
}

/** /admin/postback-events: name, event, network, status values, conversion flag. */
export const postbackEventScreens = resourceScreens({
  definition: getResource('postback-events'),
  useColumns: usePostbackEventColumns,
  useFormElements: usePostbackEventFormElements,
});
