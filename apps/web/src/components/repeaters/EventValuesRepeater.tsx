import { useTranslation } from 'react-i18next';
import { wrapperProps } from '../form/fieldProps';
import type { FormControlProps } from '../form/types';
import { Repeater } from './Repeater';
import { RepeaterField } from './RepeaterField';
import { repeaterProps } from './repeaterProps';
import { indexPath, rowErrors } from './rowErrors';
import { TrimmedTextInput } from './TrimmedTextInput';
import { useLocalRows } from './useLocalRows';

export function eventValuesToRows(value: unknown): string[] {
  return Array.isArray(value) ? value.map((text) => (text == null ? '' : String(text))) : [];
}

/** Empty rows stay on screen but are not stored: the event form accepts only non-empty values. */
export function eventValuesFromRows(rows: readonly string[]): string[] {
  return rows.map((text) => text.trim()).filter((text) => text !== '');
}

/**
 * `event-values-repeater`: the status values an event accepts, stored as an array of strings (§3.7).
 * A message on a stored value (`1`) shows under the row it came from, empty rows not counted.
 */
export function EventValuesRepeater(props: FormControlProps) {
  const { value, onChange, error, fieldErrors, disabled } = props;
  const { t } = useTranslation();
  const [rows, setRows] = useLocalRows(value, onChange, eventValuesToRows, eventValuesFromRows);
  // The displayed row of each stored value: the same index while the value holds every row (as loaded),
  // else the non-empty rows in order, as eventValuesFromRows keeps them.
  const holdsEveryRow = Array.isArray(value) && value.length === rows.length;
  const storedRows = rows.flatMap((text, index) => (holdsEveryRow || text.trim() !== '' ? [index] : []));
  const errors = rowErrors(error, fieldErrors, (path) => {
    const spot = indexPath(path);
    const row = spot && spot.field === '' ? storedRows[spot.index] : undefined;
    return row === undefined ? undefined : { row, field: '' };
  });

  return (
    <RepeaterField
      {...wrapperProps(props)}
      description={props.description ?? t('controls:repeaters.eventValues.hint')}
      error={errors.error}
    >
      <Repeater<string>
        rows={rows}
        onChange={setRows}
        createRow={() => ''}
        {...repeaterProps(props)}
        addLabel={t('controls:repeaters.eventValues.add')}
        emptyText={t('controls:repeaters.eventValues.empty')}
        renderRow={(row, index, update) => (
          <TrimmedTextInput
            size="xs"
            aria-label={t('controls:repeaters.eventValues.valueAt', { position: index + 1 })}
            value={row}
            onChange={update}
            error={errors.at(index)}
            maxLength={64}
            disabled={disabled}
          />
        )}
      />
    </RepeaterField>
  );
}
