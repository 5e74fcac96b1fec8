import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LookupOption } from '../../api/useLookup';
import { formatDateTime } from '../../components/list/formatDateTime';
import type { ListColumn } from '../../components/list/types';
import { StatusBadge } from './StatusBadge';

// Columns that most lists share; a list is its own columns between `nameColumn` and `timestampColumns`.

export type Row = Record<string, unknown>;

export const nameColumn: ListColumn<Row> = {
  accessor: 'name',
  label: 'resources:fields.name',
  link: true,
};

export const statusColumn: ListColumn<Row> = {
  accessor: 'status',
  label: 'resources:fields.status',
  render: (record) => <StatusBadge status={record.status} />,
};

/** The status of records that can also be switched off (offers, landers): archived, disabled or active. */
export const statusWithEnabledColumn: ListColumn<Row> = {
  accessor: 'status',
  label: 'resources:fields.status',
  render: (record) => <StatusBadge status={record.status} enabled={record.enabled} />,
};

function DateTimeCell({ value }: { value: unknown }) {
  const { i18n } = useTranslation();
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value, i18n.language)}
    </Text>
  );
}

export const timestampColumns: ListColumn<Row>[] = [
  {
    accessor: 'created_at',
    label: 'resources:fields.created_at',
    render: (record) => <DateTimeCell value={record.created_at} />,
  },
  {
    accessor: 'updated_at',
    label: 'resources:fields.updated_at',
    render: (record) => <DateTimeCell value={record.updated_at} />,
  },
];

/** The name of the record another one points to, from that resource's lookup; its id while unknown. */
export function referenceColumn(accessor: string, label: string, options: readonly LookupOption[]): ListColumn<Row> {
  const names = new Map(options.map((option) => [String(option.value), option.label]));
  return {
    accessor,
    label,
    render: (record) => {
      const value = record[accessor];
      if (value === null || value === undefined || value === '') return <Text c="dimmed">—</Text>;
      return names.get(String(value)) ?? String(value);
    },
  };
}

/** A short list of values as badges (countries, event values). */
export function badgesColumn(accessor: string, label: string, max = 4): ListColumn<Row> {
  return {
    accessor,
    label,
    render: (record) => {
      const values = Array.isArray(record[accessor]) ? (record[accessor] as unknown[]) : [];
      if (values.length === 0) return <Text c="dimmed">—</Text>;
      return (
        <Group gap={4}>
          {values.slice(0, max).map((value) => (
            <Badge key={String(value)} variant="light" color="gray" size="sm" tt="none" miw="max-content">
              {String(value)}
            </Badge>
          ))}
          {values.length > max && (
            <Text size="xs" c="dimmed">
              +{values.length - max}
            </Text>
          )}
        </Group>
      );
    },
  };
}

/** How many rows a nested list holds (path groups, parameters, postback events). */
export function countColumn(accessor: string, label: string): ListColumn<Row> {
  return {
    accessor,
    label,
    render: (record) => (Array.isArray(record[accessor]) ? (record[accessor] as unknown[]).length : 0),
  };
}
