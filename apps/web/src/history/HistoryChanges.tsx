import { List, Stack, Table, Text } from '@mantine/core';
import {
  diffHistoryVersions,
  type HistoryEntryDetail,
  type HistoryRowKind,
  type HistoryRowRef,
  type HistoryTableRow,
  type HistoryValue,
  RESOURCES,
} from '@switchyard/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowType } from '../components/condition-builder/ConditionBuilderContext';
import { ConditionLabel } from '../components/condition-builder/ConditionLabel';
import { type ReferenceName, useReferenceNames } from './useReferenceNames';

/** How a field is named: the form's own label where the edit screen has one, else the history's word. */
export type FieldLabel = (field: string) => string | undefined;

function Value({ field, value }: { field: string | null; value: HistoryValue }) {
  const { t } = useTranslation();
  if (value === null || value === '')
    return (
      <Text span c="dimmed" fz="inherit">
        {t('history:none')}
      </Text>
    );
  if (typeof value === 'boolean') return <>{t(value ? 'history:on' : 'history:off')}</>;
  if (field === 'status' && typeof value === 'string') {
    return (
      <Text span fw={600} fz="inherit">
        {t(`history:status.${value}`, { defaultValue: value })}
      </Text>
    );
  }
  // Ids, URLs and conditions read left to right inside Arabic text.
  return (
    <Text span fw={600} fz="inherit">
      <bdi>{String(value)}</bdi>
    </Text>
  );
}

/** The field of a row whose value names it, when that is an id of another record. */
const ROW_REFERENCE: Partial<Record<HistoryRowKind, string>> = {
  offer: 'offer_external_id',
  lander: 'lander_external_id',
  payout_rule_set: 'postback_event_external_id',
};

/** A condition as the path-group headers read it: the condition language, campaigns and segments by name. */
function Condition({ text, flowType }: { text: string | null; flowType: FlowType }) {
  const { t } = useTranslation();
  if (text === null) {
    return (
      <Text span c="dimmed" fz="inherit">
        {t('history:none')}
      </Text>
    );
  }
  return <ConditionLabel value={text} flowType={flowType} span fw={600} fz="inherit" />;
}

/**
 * A list of rows without ids (a source's parameters, postback events) as a table of each side, its columns
 * named as the history names fields, ids of other records by their names (not JSON).
 */
function RowsTable({
  caption,
  rows,
  named,
  columnLabel,
}: {
  caption: string;
  rows: HistoryTableRow[];
  named: (field: string, value: HistoryValue) => HistoryValue;
  columnLabel: (field: string) => string;
}) {
  const { t } = useTranslation();
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((column) => column !== 'id');
  if (rows.length === 0) {
    return (
      <Text size="sm">
        {caption}:{' '}
        <Text span c="dimmed" fz="inherit">
          {t('history:none')}
        </Text>
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table withTableBorder verticalSpacing={2} horizontalSpacing="xs" fz="xs">
        <Table.Caption style={{ captionSide: 'top', textAlign: 'start', marginTop: 0 }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{columnLabel(column)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            // Rows without ids: their place is their key.
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows have nothing else to tell them apart.
            <Table.Tr key={index}>
              {columns.map((column) => (
                <Table.Td key={column}>
                  <Value field={column} value={named(column, row[column] ?? null)} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function useChangeText(referenceName: ReferenceName) {
  const { t } = useTranslation();
  const row = (ref: HistoryRowRef) => {
    const field = ROW_REFERENCE[ref.kind];
    const name = (field && referenceName(field, ref.name)) || ref.name;
    return t(`history:rows.${ref.kind}`, { name });
  };
  return {
    row,
    rows: (rows: readonly HistoryRowRef[]) => rows.map(row).join(' › '),
    field: (field: string, label?: FieldLabel) =>
      label?.(field) ??
      t([`history:fields.${field.split('.').at(-1)}`, `resources:fields.${field}`], { defaultValue: field }),
  };
}

/** One entry's changes, field by field: `Path group “Britain” › Path “A”: Weight 70 → 10`. */
export function HistoryChanges({ entry, fieldLabel }: { entry: HistoryEntryDetail; fieldLabel?: FieldLabel }) {
  const { t, i18n } = useTranslation();
  // Before reads first: the arrow points the way the text runs.
  const arrow = i18n.dir() === 'rtl' ? '←' : '→';
  const definition = RESOURCES.find((candidate) => candidate.apiPath === entry.resource);
  const flowType: FlowType = entry.resource.startsWith('tracker/') ? 'tracker' : 'api';
  const referenceName = useReferenceNames(definition);
  const text = useChangeText(referenceName);
  const named = (field: string | null, value: HistoryValue) =>
    field && typeof value === 'string' ? (referenceName(field, value) ?? value) : value;
  const changes = useMemo(() => diffHistoryVersions(entry.before, entry.after), [entry.before, entry.after]);
  // A sign-in or a token keeps no versions: its heading says it all.
  if (entry.before === null && entry.after === null) return null;
  if (changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('history:noFieldChanged')}
      </Text>
    );
  }
  return (
    <List size="sm" spacing={4} aria-label={t('history:entry', { id: entry.id })}>
      {changes.map((change, index) => {
        const where = text.rows(change.rows);
        const key = `${change.rows.map((row) => row.id).join('/')}:${change.field}:${index}`;
        if (change.kind !== 'changed') {
          const last = change.rows.at(-1);
          const what = last ? text.row(last) : '';
          const inside = change.rows.length > 1 ? `${text.rows(change.rows.slice(0, -1))} › ` : '';
          return (
            <List.Item key={key} c={change.kind === 'added' ? 'green.8' : 'red.8'}>
              {t(`history:${change.kind}`, { what: `${inside}${what}` })}
            </List.Item>
          );
        }
        return (
          <List.Item key={key}>
            {where && `${where}: `}
            {text.field(change.field ?? '', change.rows.length === 0 ? fieldLabel : undefined)}{' '}
            {change.table ? (
              <Stack gap={4} mt={4}>
                {(['before', 'after'] as const).map((side) => (
                  <RowsTable
                    key={side}
                    caption={t(`history:${side}`)}
                    rows={change.table?.[side] ?? []}
                    named={named}
                    columnLabel={(column) => text.field(column)}
                  />
                ))}
              </Stack>
            ) : change.condition ? (
              <>
                <Condition text={change.condition.before} flowType={flowType} /> {arrow}{' '}
                <Condition text={change.condition.after} flowType={flowType} />
              </>
            ) : (
              <>
                <Value field={change.field} value={named(change.field, change.before)} /> {arrow}{' '}
                <Value field={change.field} value={named(change.field, change.after)} />
              </>
            )}
          </List.Item>
        );
      })}
    </List>
  );
}
