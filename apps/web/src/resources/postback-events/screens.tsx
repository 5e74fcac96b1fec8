import { Badge, Group, Stack, Text } from '@mantine/core';
import {
  CONVERSION_STATES,
  DEFAULT_STATUS_MAP,
  getResource,
  type StatusMap,
  UNKNOWN_STATUS_TREATMENTS,
  type UnknownStatusTreatment,
} from '@switchyard/domain';
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

const STATE_COLORS = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

/** A postback event's status mapping in a list cell: each state and its values, on one line each. */
function StatusMapSummary({ map }: { map: Partial<StatusMap> | undefined }) {
  const { t } = useTranslation();
  if (!map) return <Text c="dimmed">—</Text>;
  return (
    <Stack gap={2}>
      {CONVERSION_STATES.map((state) => (
        <Group key={state} gap={6} wrap="nowrap">
          <Badge color={STATE_COLORS[state]} variant="light" size="xs" miw="max-content">
            {t(`resources:postback-events.states.${state}`)}
          </Badge>
          <Text size="xs" dir="ltr" truncate="end" maw={220} title={(map[state] ?? []).join(', ')}>
            {(map[state] ?? []).join(', ') || '—'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** What a status no list holds becomes, said the same way on the list and the form. */
function unknownStatusLabel(value: unknown): string {
  const treatment: UnknownStatusTreatment = value === 'pending' ? 'pending' : 'refuse';
  return `resources:postback-events.unknownStatuses.${treatment}`;
}

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
        accessor: 'status_map',
        label: 'resources:postback-events.fields.status_map',
        render: (event) => <StatusMapSummary map={event.status_map as Partial<StatusMap> | undefined} />,
      },
      {
        accessor: 'unknown_statuses',
        label: 'resources:postback-events.fields.unknown_statuses',
        render: (event) => <Text size="sm">{t(unknownStatusLabel(event.unknown_statuses))}</Text>,
      },
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
  const { t } = useTranslation();
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
        // New values typed in, checked by §5.2's tag rules; the status map's lists below take
        // a network's codes such as `1` as they are.
        type: 'tags',
        multiple: true,
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
      {
        name: 'status_map',
        type: 'status-map',
        label: 'resources:postback-events.fields.status_map',
        labelDescription: 'resources:postback-events.statusMapHint',
        value: DEFAULT_STATUS_MAP,
      },
      {
        name: 'unknown_statuses',
        type: 'radio-with-info',
        label: 'resources:postback-events.fields.unknown_statuses',
        labelDescription: 'resources:postback-events.unknownStatusesHint',
        // The control shows option texts as given.
        options: UNKNOWN_STATUS_TREATMENTS.map((treatment) => ({
          value: treatment,
          label: t(unknownStatusLabel(treatment)),
          description: t(`resources:postback-events.unknownStatuses.${treatment}Hint`),
        })),
        value: 'refuse',
      },
    ],
    [t, eventOptions, networkOptions],
  );
}

/**
 * /admin/postback-events: name, event, network, status values, conversion flag, status mapping, and what
 * unknown statuses become.
 */
export const postbackEventScreens = resourceScreens({
  definition: getResource('postback-events'),
  useColumns: usePostbackEventColumns,
  useFormElements: usePostbackEventFormElements,
});
