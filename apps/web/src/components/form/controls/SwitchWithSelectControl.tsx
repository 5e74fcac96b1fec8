import { Select, Stack, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { switchProps } from '../fieldProps';
import type { FormControlProps } from '../types';

/**
 * `switch-with-select` (§4): a switch that, when on, reveals a select of `options` (values 1 and 2).
 * Value: a number — 0 off; switching on sets 1; choosing an option sets its value. Switching off sets 0
 * and drops the choice.
 */
export function SwitchWithSelectControl(props: FormControlProps) {
  const { element, value, onChange, label, placeholder, error, disabled } = props;
  const { t } = useTranslation();
  const current = Number(value) || 0;
  const on = current !== 0;
  const options = element.options ?? [];
  return (
    <Stack gap="xs">
      <Switch
        {...switchProps(props)}
        // Once on, the error shows under the select it is about.
        error={on ? undefined : error}
        checked={on}
        onChange={(event) => onChange(event.currentTarget.checked ? 1 : 0)}
      />
      {on && (
        <Select
          aria-label={typeof label === 'string' ? label : undefined}
          placeholder={placeholder}
          error={error}
          disabled={disabled}
          data={options.map((option) => ({ value: String(option.value), label: option.label }))}
          value={options.some((option) => Number(option.value) === current) ? String(current) : null}
          onChange={(chosen) => {
            if (chosen !== null) onChange(Number(chosen));
          }}
          allowDeselect={false}
          nothingFoundMessage={t('resources:form.noResults')}
          {...element.input}
        />
      )}
    </Stack>
  );
}
