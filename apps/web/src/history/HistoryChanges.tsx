import { List, Text } from '@mantine/core';
import {
  diffHistoryVersions,
  type HistoryEntryDetail,
  type HistoryRowKind,
  type HistoryRowRef,
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
            {change.condition ? (
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
