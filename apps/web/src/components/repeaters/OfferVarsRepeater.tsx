import { Group } from '@mantine/core';
import { dropEmptyVars } from '@switchyard/domain';
import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../form/fieldProps';
import type { FormControlProps } from '../form/types';
import { Repeater } from './Repeater';
import { RepeaterField } from './RepeaterField';
import { repeaterProps } from './repeaterProps';
import { rowErrors } from './rowErrors';
import { TrimmedTextInput } from './TrimmedTextInput';
import { useLocalRows } from './useLocalRows';

export interface OfferVar {
  key: string;
  value: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function offerVarsToRows(value: unknown): OfferVar[] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).map(([key, text]) => ({ key, value: text == null ? '' : String(text) }));
}

/** §3.7: the stored object; pairs with an empty key or value are dropped, as the offer form does on save. */
export function offerVarsFromRows(rows: readonly OfferVar[]): Record<string, string> {
  return dropEmptyVars(Object.fromEntries(rows.map((row) => [row.key, row.value])));
}

/**
 * The displayed row each stored key comes from, as offerVarsFromRows builds the object: the last row of a
 * key wins, and a pair with an empty key or value is not stored.
 */
export function offerVarSourceRows(rows: readonly OfferVar[]): Map<string, number> {
  const lastOfKey = new Map<string, number>();
  for (const [index, row] of rows.entries()) lastOfKey.set(row.key, index);
  const sources = new Map<string, number>();
  for (const [key, index] of lastOfKey) {
    const trimmed = key.trim();
    if (trimmed !== '' && (rows[index]?.value ?? '').trim() !== '') sources.set(trimmed, index);
  }
  return sources;
}

/**
 * `offer-vars-repeater`: key/value pairs stored as `{ [key]: value }` (§3.7). A message on a stored key
 * (`geo`) shows under the Value of the row that key comes from.
 */
export function OfferVarsRepeater(props: FormControlProps) {
  const { value, onChange, error, fieldErrors, disabled } = props;
  const { t } = useTranslation();
  const [rows, setRows] = useLocalRows(value, onChange, offerVarsToRows, offerVarsFromRows);
  const keyCounts = new Map<string, number>();
  for (const row of rows) if (row.key) keyCounts.set(row.key, (keyCounts.get(row.key) ?? 0) + 1);
  const sources = offerVarSourceRows(rows);
  const errors = rowErrors(error, fieldErrors, (path) => {
    // A key stored with an empty value (as loaded) has no source row; its last row shows the message.
    const row = sources.get(path) ?? rows.findLastIndex((entry) => entry.key.trim() === path);
    return row < 0 ? undefined : { row, field: 'value' };
  });

  return (
    <RepeaterField
      {...wrapperProps(props)}
      description={props.description ?? t('controls:repeaters.offerVars.hint')}
      error={errors.error}
    >
      <Repeater<OfferVar>
        rows={rows}
        onChange={setRows}
        createRow={() => ({ key: '', value: '' })}
        {...repeaterProps(props)}
        addLabel={t('controls:repeaters.offerVars.add')}
        emptyText={t('controls:repeaters.offerVars.empty')}
        renderRow={(row, index, update) => (
          <Group grow gap="xs" align="flex-start" wrap="nowrap">
            <TrimmedTextInput
              size="xs"
              label={t('controls:repeaters.offerVars.key')}
              value={row.key}
              onChange={(key) => update({ ...row, key })}
              error={(keyCounts.get(row.key) ?? 0) > 1 ? t('controls:repeaters.offerVars.duplicateKey') : undefined}
              disabled={disabled}
            />
            <TrimmedTextInput
              size="xs"
              label={t('controls:repeaters.offerVars.value')}
              value={row.value}
              onChange={(text) => update({ ...row, value: text })}
              error={errors.at(index, 'value')}
              disabled={disabled}
            />
          </Group>
        )}
      />
    </RepeaterField>
  );
}
